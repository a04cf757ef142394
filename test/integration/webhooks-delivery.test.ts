import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { emit, startWebhookWorker } from '../helpers/webhook-worker';

interface Attempt {
  deliveryId: string;
  event: string;
  attempt: number;
  succeeded: boolean;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  createdAt: string;
}
interface WebhookDetail {
  id: string;
  enabled: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
  attempts: Attempt[];
  secret?: string;
}

const BASE_MS = 200;
const MAX_ATTEMPTS = 4;
// Short, so the slow-receiver case takes seconds, yet long enough for a loaded test machine.
const TIMEOUT_MS = 2_000;

describe('webhook delivery: signed, retried, timed out, disabled (real handlers, real receiver)', () => {
  let app: Appliance;
  let worker: WebhookWorker;
  let apiKey: string;
  let userId: string;
  const receivers: Receiver[] = [];

  before(async () => {
    // The receivers listen on 127.0.0.1, which the guard opens only with WEBHOOK_ALLOW_PRIVATE.
    app = await startAppliance({ processes: ['api'], env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    ({ apiKey, userId } = await app.api.registerWithKey());
    worker = await startWebhookWorker(
      { ...app.env, WEBHOOK_RETRY_BASE_MS: String(BASE_MS), WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS) },
      { timeoutMs: TIMEOUT_MS, dispatchIntervalMs: 100 },
    );
  });
  after(async () => {
    await worker.stop();
    await app.stop();
    for (const r of receivers) await r.close();
  });

  const receiver = async (): Promise<Receiver> => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  const hook = async (url: string, events: string[]): Promise<{ id: string; secret: string }> => {
    const res = await app.api.post<{ id: string; secret: string }>('/v1/webhooks', {
      token: apiKey,
      body: { url, events },
    });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const detail = async (id: string): Promise<WebhookDetail> =>
    (await app.api.get<WebhookDetail>(`/v1/webhooks/${id}`, { token: apiKey })).body;
  const logs = (event: string, webhookId: string) =>
    worker.log.lines.filter((l) => l.event === event && l.webhookId === webhookId);

  it('delivers every event kind with the spec headers and a signature an independent verifier accepts', async () => {
    const r = await receiver();
    const all = [
      'email.sent',
      'email.delivered',
      'email.bounced',
      'email.failed',
      'email.complained',
      'email.received',
    ];
    const { id, secret } = await hook(r.url, all);
    const bouncesOnly = await receiver();
    await hook(bouncesOnly.url, ['email.bounced']);

    await emit(worker.db, userId, 'email.sent');
    await emit(worker.db, userId, 'email.delivered');
    await emit(worker.db, userId, 'email.bounced', { reason: '550 5.1.1 user unknown', statusCode: 550 });
    await emit(worker.db, userId, 'email.failed', { reason: 'retries exhausted', statusCode: 451 });
    await emit(worker.db, userId, 'email.complained');
    await emit(
      worker.db,
      userId,
      'email.received',
      {
        inboundId: 'inb_01test',
        from: 'someone@example.net',
        to: ['hello@inbox.example.com'],
        subject: 'Hi',
        domainId: 'dom_01test',
        authenticated: true,
        attachmentCount: 0,
      },
      { emailId: 'inb_01test', recipient: 'hello@inbox.example.com' },
    );
    const successes = async (hookId: string) => (await detail(hookId)).attempts.filter((a) => a.succeeded);
    await waitUntil('six deliveries', async () => (await successes(id)).length === 6, 30_000);
    await waitUntil('one bounce delivery', () => bouncesOnly.requests.length >= 1);

    const deliveryIds = new Set<string>();
    for (const req of r.requests) {
      assert.equal(req.method, 'POST');
      assert.equal(req.url, '/hook');
      assert.equal(req.headers['content-type'], 'application/json');
      assert.match(req.headers['user-agent'] ?? '', /^Mailroom-Webhooks\//);
      assert.ok(verifySignature(secret, req.headers['x-mail-signature'] as string, req.body), req.body);
      assert.ok(!verifySignature(secret, req.headers['x-mail-signature'] as string, `${req.body} `));
      assert.ok(!verifySignature(`${secret}x`, req.headers['x-mail-signature'] as string, req.body));
      const body = JSON.parse(req.body) as Record<string, unknown>;
      assert.equal(req.headers['x-mail-event'], body.event);
      assert.ok(Date.parse(body.timestamp as string));
      const deliveryId = req.headers['x-mail-delivery-id'] as string;
      assert.match(deliveryId, /^whd_[0-9a-z]{26}$/);
      deliveryIds.add(deliveryId);
    }
    assert.equal(deliveryIds.size, 6);
    const byEvent = new Map(
      r.requests.map((q) => [q.headers['x-mail-event'], JSON.parse(q.body) as unknown]),
    );
    assert.deepEqual([...byEvent.keys()].sort(), [...all].sort());
    assert.deepEqual(
      { ...(byEvent.get('email.bounced') as object), timestamp: 'x' },
      {
        event: 'email.bounced',
        emailId: 'email_01test',
        timestamp: 'x',
        recipient: 'rcpt@example.org',
        reason: '550 5.1.1 user unknown',
        statusCode: 550,
      },
    );
    assert.deepEqual(Object.keys(byEvent.get('email.sent') as object), [
      'event',
      'emailId',
      'timestamp',
      'recipient',
    ]);
    assert.equal((byEvent.get('email.received') as { inboundId: string }).inboundId, 'inb_01test');
    // Subscribed to email.bounced only: of six events it receives that one.
    assert.ok(bouncesOnly.requests.every((q) => q.headers['x-mail-event'] === 'email.bounced'));

    await waitUntil('six log lines', () => logs('webhook_delivered', id).length === 6);
    const ok = await successes(id);
    assert.equal(new Set(ok.map((a) => a.deliveryId)).size, 6);
    for (const a of ok) {
      assert.equal(a.httpStatus, 200);
      assert.equal(a.error, null);
      assert.ok(a.durationMs >= 0);
      assert.ok(deliveryIds.has(a.deliveryId));
    }
    const text = worker.log.text.join('');
    assert.ok(!text.includes(secret.slice(6)), 'secret logged');
    assert.ok(!text.includes('550 5.1.1 user unknown'), 'payload logged');
  });

  it('retries a failing receiver with exponential backoff, keeping one delivery id, until it succeeds', async () => {
    const r = await receiver();
    // The excerpt keeps the first 512 bytes of what the receiver said (issue 19, screen 6).
    r.respond = (req) =>
      req.n <= 2 ? { status: 500, body: `{"error":"database down"}${'x'.repeat(2000)}` } : { status: 204 };
    const { id, secret } = await hook(r.url, ['email.delivered']);
    await emit(worker.db, userId, 'email.delivered');
    await waitUntil('third attempt', () => r.requests.length >= 3);

    const [a, b, c] = r.requests as [(typeof r.requests)[0], (typeof r.requests)[0], (typeof r.requests)[0]];
    const ids = new Set(r.requests.map((q) => q.headers['x-mail-delivery-id']));
    assert.equal(ids.size, 1, 'one X-Mail-Delivery-Id across retries');
    assert.ok(b.at - a.at >= BASE_MS, `first retry after ${b.at - a.at} ms`);
    assert.ok(c.at - b.at >= 2 * BASE_MS, `second retry after ${c.at - b.at} ms`);
    assert.ok(c.at - b.at < 2 * BASE_MS * 1.25 + 2_000);
    assert.equal(a.body, c.body);
    for (const q of r.requests)
      assert.ok(verifySignature(secret, q.headers['x-mail-signature'] as string, q.body));

    await waitUntil('the success recorded', async () => (await detail(id)).attempts.length === 3);
    const view = await detail(id);
    assert.deepEqual(
      view.attempts.map((x) => [x.attempt, x.succeeded, x.httpStatus]),
      [
        [3, true, 204],
        [2, false, 500],
        [1, false, 500],
      ],
    );
    assert.equal(view.attempts[1]?.error, 'HTTP 500');
    assert.equal(view.attempts[1]?.responseExcerpt, `{"error":"database down"}${'x'.repeat(512 - 25)}`);
    assert.equal(view.attempts[0]?.responseExcerpt, '');
    assert.equal(view.consecutiveFailures, 0);
    const failed = logs('webhook_delivery_failed', id);
    assert.equal(failed.length, 2);
    assert.equal(failed[0]?.httpStatus, 500);
    assert.ok(typeof failed[0]?.nextAttemptAt === 'string');
  });

  it(`gives up after WEBHOOK_MAX_ATTEMPTS (${MAX_ATTEMPTS}) on a receiver that always fails`, async () => {
    const r = await receiver();
    r.respond = () => ({ status: 503 });
    const { id } = await hook(r.url, ['email.complained']);
    await emit(worker.db, userId, 'email.complained');
    await waitUntil('all attempts', () => r.requests.length >= MAX_ATTEMPTS);
    // Past the next backoff step nothing more arrives.
    await new Promise((res) => setTimeout(res, BASE_MS * 2 ** (MAX_ATTEMPTS - 1) * 1.25 + 300));
    assert.equal(r.requests.length, MAX_ATTEMPTS);
    assert.equal(new Set(r.requests.map((q) => q.headers['x-mail-delivery-id'])).size, 1);
    const failed = logs('webhook_delivery_failed', id);
    assert.equal(failed.length, MAX_ATTEMPTS);
    assert.equal(failed.at(-1)?.gaveUp, true);
    assert.equal(failed.at(-1)?.nextAttemptAt, null);
    const view = await detail(id);
    assert.equal(view.consecutiveFailures, MAX_ATTEMPTS);
    assert.equal(view.enabled, true);
  });

  it('counts a receiver slower than the timeout as a failure, then retries', async () => {
    const r = await receiver();
    r.respond = (req) => (req.n === 1 ? { status: 200, delayMs: TIMEOUT_MS + 1_000 } : { status: 200 });
    const { id } = await hook(r.url, ['email.sent']);
    await emit(worker.db, userId, 'email.sent');
    await waitUntil('retry after the timeout', () => r.requests.length >= 2);
    await waitUntil('both attempts recorded', async () => (await detail(id)).attempts.length === 2);
    const [second, first] = (await detail(id)).attempts;
    assert.equal(first?.succeeded, false);
    assert.equal(first?.httpStatus, null);
    assert.equal(first?.error, `timed out after ${TIMEOUT_MS} ms`);
    assert.equal(first?.responseExcerpt, null);
    assert.ok((first?.durationMs ?? 0) >= TIMEOUT_MS - 50 && (first?.durationMs ?? 0) < TIMEOUT_MS + 900);
    assert.equal(second?.succeeded, true);
    assert.equal(second?.deliveryId, first?.deliveryId);
  });

  it('does not follow redirects: a 302 is a failure and its Location is never contacted', async () => {
    const target = await receiver();
    const r = await receiver();
    r.respond = () => ({ status: 302, headers: { Location: target.url } });
    const { id } = await hook(r.url, ['email.failed']);
    await emit(worker.db, userId, 'email.failed', { reason: 'x', statusCode: null });
    await waitUntil('first attempt recorded', async () => (await detail(id)).attempts.length >= 1);
    const first = (await detail(id)).attempts.at(-1);
    assert.equal(first?.succeeded, false);
    assert.equal(first?.httpStatus, 302);
    assert.match(first?.error ?? '', /redirects are not followed/);
    assert.equal(target.requests.length, 0);
  });

  it('disables an endpoint after 20 consecutive failures; PATCH enabled:true resets the count', async () => {
    const r = await receiver();
    r.respond = () => ({ status: 500 });
    const { id } = await hook(r.url, ['email.sent']);
    // 5 events × 4 attempts = 20 failed attempts in a row.
    for (let i = 0; i < 5; i++) await emit(worker.db, userId, 'email.sent');
    await waitUntil('disabled', async () => !(await detail(id)).enabled, 20_000);
    const disabled = await detail(id);
    assert.equal(disabled.disabledReason, 'consecutive_failures');
    assert.ok(disabled.consecutiveFailures >= 20, String(disabled.consecutiveFailures));
    await waitUntil('webhook_disabled logged', () => logs('webhook_disabled', id).length >= 1);
    assert.equal(logs('webhook_disabled', id).length, 1);
    assert.equal(logs('webhook_disabled', id)[0]?.consecutiveFailures, 20);

    // Disabled: new events are not delivered (nor are the retries still pending).
    await new Promise((res) => setTimeout(res, 500));
    const seen = r.requests.length;
    assert.ok(seen >= 20 && seen <= 24, `${seen} requests`);
    await emit(worker.db, userId, 'email.sent');
    await new Promise((res) => setTimeout(res, 1_000));
    assert.equal(r.requests.length, seen);

    const enabled = await app.api.patch<WebhookDetail>(`/v1/webhooks/${id}`, {
      token: apiKey,
      body: { enabled: true },
    });
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.consecutiveFailures, 0);
    r.respond = () => ({ status: 200 });
    for (let i = 0; i < 6; i++) await emit(worker.db, userId, 'email.sent');
    await waitUntil('delivered after re-enabling', () => r.requests.length === seen + 6);
    await waitUntil(
      'successes recorded',
      async () => (await detail(id)).attempts.filter((a) => a.succeeded).length === 6,
    );
    const view = await detail(id);
    assert.equal(view.consecutiveFailures, 0);
    // 26 attempts so far; the detail view shows the newest 25.
    assert.equal(view.attempts.length, 25);
    assert.ok(view.attempts.slice(0, 6).every((a) => a.succeeded));
  });
});
