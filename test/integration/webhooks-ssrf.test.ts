import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { emit, startWebhookWorker } from '../helpers/webhook-worker';

interface Attempt {
  succeeded: boolean;
  httpStatus: number | null;
  error: string | null;
}

/**
 * The guard at delivery time. The API runs with WEBHOOK_ALLOW_PRIVATE so that it
 * saves these URLs (as an endpoint saved before the operator tightened the
 * setting, or whose DNS changed since, would be); the worker runs with the guard
 * on, opened only for 127.0.0.2 through WEBHOOK_ALLOWED_CIDRS.
 */
describe('webhook SSRF guard at delivery time', () => {
  let dns: FakeDns;
  let app: Appliance;
  let worker: WebhookWorker;
  let apiKey: string;
  let userId: string;
  let loopback: Receiver;
  let allowed: Receiver;

  before(async () => {
    dns = await startDnsServer();
    loopback = await startReceiver('127.0.0.1');
    allowed = await startReceiver('127.0.0.2');
    app = await startAppliance({
      processes: ['api'],
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', DNS_SERVERS: dns.address },
    });
    ({ apiKey, userId } = await app.api.registerWithKey());
    worker = await startWebhookWorker(
      {
        ...app.env,
        WEBHOOK_ALLOW_PRIVATE: 'false',
        WEBHOOK_ALLOWED_CIDRS: '127.0.0.2/32',
        WEBHOOK_MAX_ATTEMPTS: '1',
      },
      { dispatchIntervalMs: 100 },
    );
  });
  after(async () => {
    await worker.stop();
    await app.stop();
    await dns.close();
    await loopback.close();
    await allowed.close();
  });

  const hook = async (url: string): Promise<{ id: string; secret: string }> => {
    const res = await app.api.post<{ id: string; secret: string }>('/v1/webhooks', {
      token: apiKey,
      body: { url, events: ['email.delivered'] },
    });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const firstAttempt = async (id: string): Promise<Attempt> => {
    let attempt: Attempt | undefined;
    await waitUntil(`an attempt for ${id}`, async () => {
      const res = await app.api.get<{ attempts: Attempt[] }>(`/v1/webhooks/${id}`, { token: apiKey });
      attempt = res.body.attempts.at(-1);
      return attempt !== undefined;
    });
    return attempt!;
  };
  const disable = (id: string) =>
    app.api.patch(`/v1/webhooks/${id}`, { token: apiKey, body: { enabled: false } });

  it('refuses loopback literals, in every spelling, without connecting', async () => {
    const cases: [string, RegExp][] = [
      [`http://127.0.0.1:${loopback.port}/hook`, /^refused: 127\.0\.0\.1 is a loopback address/],
      [`http://[::1]:${loopback.port}/hook`, /^refused: ::1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${loopback.port}/hook`, /^refused: ::ffff:7f00:1 is a loopback address/],
      [`http://localhost:${loopback.port}/hook`, /^refused: 127\.0\.0\.1 is a loopback address/],
    ];
    const ids: [string, RegExp][] = [];
    for (const [url, reason] of cases) ids.push([(await hook(url)).id, reason]);
    await emit(worker.db, userId, 'email.delivered');
    for (const [id, reason] of ids) {
      const attempt = await firstAttempt(id);
      assert.equal(attempt.succeeded, false);
      assert.equal(attempt.httpStatus, null);
      assert.match(attempt.error ?? '', reason);
      await disable(id);
    }
    assert.equal(loopback.requests.length, 0);
    const refused = () =>
      worker.log.lines.filter((l) => l.event === 'webhook_delivery_failed' && l.refused === true);
    await waitUntil('a log line per refusal', () => refused().length === cases.length);
  });

  it('refuses a host that resolved to a public address when saved and resolves to loopback now', async () => {
    dns.set('flip.example.com', 'A', ['93.184.216.34']);
    const { id } = await hook(`http://flip.example.com:${loopback.port}/hook`);
    dns.set('flip.example.com', 'A', ['127.0.0.1']);
    await emit(worker.db, userId, 'email.delivered');
    const attempt = await firstAttempt(id);
    assert.match(attempt.error ?? '', /^refused: 127\.0\.0\.1 is a loopback address/);
    assert.equal(loopback.requests.length, 0);
    await disable(id);
  });

  it('refuses a host with any refused address among its records', async () => {
    dns.set('mixed.example.com', 'A', ['127.0.0.2']);
    dns.set('mixed.example.com', 'AAAA', ['::1']);
    const { id } = await hook(`http://mixed.example.com:${allowed.port}/hook`);
    await emit(worker.db, userId, 'email.delivered');
    assert.match((await firstAttempt(id)).error ?? '', /^refused: ::1 is a loopback address/);
    assert.equal(allowed.requests.length, 0);
    await disable(id);
  });

  it('connects to the address it resolved through DNS_SERVERS and checked, with the URL host as Host', async () => {
    // The system resolver knows nothing of this name: only the fake DNS server answers it.
    dns.set('pinned.example.com', 'A', ['127.0.0.2']);
    dns.queries.length = 0;
    const { id, secret } = await hook(`http://pinned.example.com:${allowed.port}/in?x=1`);
    await emit(worker.db, userId, 'email.delivered');
    await waitUntil('delivery through the allowlist', () => allowed.requests.length === 1);
    const req = allowed.requests[0]!;
    assert.equal(req.headers.host, `pinned.example.com:${allowed.port}`);
    assert.equal(req.url, '/in?x=1');
    assert.ok(verifySignature(secret, req.headers['x-mail-signature'] as string, req.body));
    assert.ok(dns.queries.some((q) => q.name === 'pinned.example.com' && q.type === 'A'));
    const attempt = await firstAttempt(id);
    assert.equal(attempt.succeeded, true);
  });
});
