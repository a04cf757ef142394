import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';

/**
 * Test mode is a sandbox: a `re_test_` key reaches no live effect. Its simulated bounces
 * and complaints do not suppress (they blocked live sends to the address), it cannot add
 * to or remove from the suppression list, and an Idempotency-Key is per mode (a test send
 * pre-empted the live send with the same key and body) and replays only to a key that
 * could have made the original send (a domain-held key got another domain's 202).
 */
const DOMAIN = 'sandbox.example.com';
const OTHER = 'other.sandbox.example.com';
const SIM = 'simulator.mailroom.invalid';

interface SendBody {
  id: string;
  error?: { code: string; message: string };
}
interface ResendError {
  statusCode: number;
  name: string;
  message: string;
}

describe('a test key never reaches a live effect', () => {
  let sending: SendingAppliance;
  let app: Appliance;
  let live: string;
  let test: string;

  const createKey = async (body: Record<string, unknown>) => {
    const res = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: sending.token,
      body: { name: 'k', ...body },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.token;
  };
  const send = (token: string, to: string, headers: Record<string, string> = {}, from = `app@${DOMAIN}`) =>
    app.api.post<SendBody>('/v1/emails', {
      token,
      headers,
      body: { from, to, subject: 'Sandbox', text: 'x' },
    });
  const recipientStatus = async (id: string, address: string) =>
    (
      await app.api.get<{ recipients: { email: string; status: string }[] }>(`/v1/emails/${id}`, {
        token: test,
      })
    ).body.recipients.find((r) => r.email === address)?.status;
  const suppressions = async () =>
    (await app.api.get<{ data: { id: string; email: string }[] }>('/v1/suppressions', { token: live })).body
      .data;

  before(async () => {
    sending = await startSendingAppliance(DOMAIN);
    app = sending.app;
    live = sending.apiKey;
    test = await createKey({ mode: 'test' });
  });
  after(async () => {
    await sending.stop();
  });

  it('a simulated bounce or complaint of test mail suppresses nothing; live mail to the address still goes', async () => {
    const outcomes = [
      [`bounced+sandbox@${SIM}`, 'bounced'],
      [`complained+sandbox@${SIM}`, 'complained'],
    ] as const;
    for (const [address, status] of outcomes) {
      const res = await send(test, address);
      assert.equal(res.status, 202, res.text);
      await waitUntil(
        `${address} ${status}`,
        async () => (await recipientStatus(res.body.id, address)) === status,
        30_000,
      );
    }
    assert.deepEqual(await suppressions(), [], 'the live suppression list is untouched');
    for (const [address] of outcomes) {
      const res = await send(live, address);
      assert.equal(res.status, 202, `a live send to ${address}: ${res.text}`);
    }
  });

  it('a test key cannot add to or remove from the suppression list, on /v1 or the Resend surface', async () => {
    const made = await app.api.post<{ id: string }>('/v1/suppressions', {
      token: live,
      body: { email: 'kept@dest.test', type: 'hard_bounce' },
    });
    assert.equal(made.status, 201, made.text);
    for (const [method, path, body] of [
      ['POST', '/v1/suppressions', { email: 'blocked@dest.test' }],
      ['DELETE', `/v1/suppressions/${made.body.id}`, undefined],
      ['DELETE', '/v1/suppressions/kept@dest.test', undefined],
    ] as const) {
      const res = await app.api.request<{ error: { code: string; message: string } }>(method, path, {
        token: test,
        body,
      });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.error.code, 'FORBIDDEN');
      assert.match(res.body.error.message, /test-mode API key cannot change/);
    }
    for (const [method, path, body] of [
      ['POST', '/suppressions', { email: 'blocked@dest.test' }],
      ['DELETE', `/suppressions/${made.body.id}`, undefined],
    ] as const) {
      const res = await app.api.request<ResendError>(method, path, { token: test, body });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.name, 'restricted_api_key');
    }
    // (The live sends of the first test bounce and suppress meanwhile: live mail does.)
    const after = (await suppressions()).map((x) => x.email);
    assert.ok(after.includes('kept@dest.test'), 'the live suppression was not removed');
    assert.ok(!after.includes('blocked@dest.test'), 'nothing was added');
    const read = await app.api.get(`/v1/suppressions/${made.body.id}`, { token: test });
    assert.equal(read.status, 200, 'reading stays open to a test key');
    const removed = await app.api.delete(`/v1/suppressions/${made.body.id}`, { token: live });
    assert.equal(removed.status, 200, removed.text);
  });

  it('a test key changes nothing live mail depends on: every other state change answers 403 FORBIDDEN', async () => {
    const scheduled = await app.api.post<SendBody>('/v1/emails', {
      token: live,
      body: {
        from: `app@${DOMAIN}`,
        to: 'later@dest.test',
        subject: 'Later',
        text: 'x',
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    assert.equal(scheduled.status, 202, scheduled.text);
    const id = scheduled.body.id;
    const before = (
      await app.api.get<{ status: string; scheduledAt: string }>(`/v1/emails/${id}`, { token: live })
    ).body;
    const domainId = sending.domain.id;
    const refused: [string, string, unknown][] = [
      ['POST', `/v1/emails/${id}/cancel`, undefined],
      ['PATCH', `/v1/emails/${id}`, { scheduledAt: new Date(Date.now() + 7_200_000).toISOString() }],
      ['DELETE', `/v1/domains/${domainId}`, undefined],
      ['PATCH', '/v1/settings/limits', { emailsPerHour: 1 }],
      ['POST', '/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['email.sent'] }],
      ['DELETE', '/v1/inbound/inb_00000000000000000000000000', undefined],
    ];
    for (const [method, path, body] of refused) {
      const res = await app.api.request<{ error: { code: string; message: string } }>(method, path, {
        token: test,
        body,
      });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.error.code, 'FORBIDDEN', `${method} ${path}`);
      assert.match(res.body.error.message, /test-mode API key cannot change what live mail depends on/);
    }
    for (const [method, path] of [
      ['POST', `/emails/${id}/cancel`],
      ['DELETE', `/domains/${domainId}`],
    ] as const) {
      const res = await app.api.request<ResendError>(method, path, { token: test });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.name, 'restricted_api_key');
    }
    const still = await app.api.get<{ status: string; scheduledAt: string }>(`/v1/emails/${id}`, {
      token: live,
    });
    assert.deepEqual(
      [still.body.status, still.body.scheduledAt],
      [before.status, before.scheduledAt],
      'the live message is still scheduled, at its time',
    );
    const domain = await app.api.get(`/v1/domains/${domainId}`, { token: live });
    assert.equal(domain.status, 200, 'the live domain is still there');
    // What stays in the sandbox is open: adding a domain to send test mail from.
    const added = await app.api.post('/v1/domains', {
      token: test,
      body: { domain: 'trial.sandbox.example.com' },
    });
    assert.equal(added.status, 201, added.text);
    const cancelled = await app.api.post(`/v1/emails/${id}/cancel`, { token: live });
    assert.equal(cancelled.status, 200, cancelled.text);
  });

  it('an Idempotency-Key is per mode: a test send never answers a live one, nor the reverse', async () => {
    for (const [first, second, key] of [
      [test, live, 'order-1'],
      [live, test, 'order-2'],
    ] as const) {
      const headers = { 'idempotency-key': key };
      const a = await send(first, 'person@dest.test', headers);
      assert.equal(a.status, 202, a.text);
      const b = await send(second, 'person@dest.test', headers);
      assert.equal(b.status, 202, b.text);
      assert.notEqual(b.body.id, a.body.id, 'a new send, not a replay of the other mode');
      assert.equal(b.headers.get('idempotent-replayed'), null);
      const modes = await Promise.all(
        [a, b].map(
          async (r) =>
            (await app.api.get<{ mode: string }>(`/v1/emails/${r.body.id}`, { token: live })).body.mode,
        ),
      );
      assert.deepEqual(modes, [first === test ? 'test' : 'live', second === test ? 'test' : 'live']);
      // Each mode still replays its own.
      for (const [token, original] of [
        [first, a],
        [second, b],
      ] as const) {
        const again = await send(token, 'person@dest.test', headers);
        assert.equal(again.status, 202, again.text);
        assert.equal(again.body.id, original.body.id);
        assert.equal(again.headers.get('idempotent-replayed'), 'true');
      }
    }
  });

  it('a key held to a domain gets no replay of a send from another domain: 403 as without the key', async () => {
    await addVerifiedDomain(app, sending.dns, sending.token, OTHER);
    const held = await createKey({ permission: 'sending_access', domainId: sending.domain.id });
    const headers = { 'idempotency-key': 'shared-key' };
    const original = await send(live, 'person@dest.test', headers, `app@${OTHER}`);
    assert.equal(original.status, 202, original.text);
    const replay = await send(held, 'person@dest.test', headers, `app@${OTHER}`);
    assert.equal(replay.status, 403, replay.text);
    assert.equal(replay.body.error?.code, 'API_KEY_DOMAIN_RESTRICTED');
    assert.equal(replay.headers.get('idempotent-replayed'), null);
    // From its own domain the held key replays as any key would.
    const ownSend = await send(live, 'person@dest.test', { 'idempotency-key': 'own-key' });
    assert.equal(ownSend.status, 202, ownSend.text);
    const ownReplay = await send(held, 'person@dest.test', { 'idempotency-key': 'own-key' });
    assert.equal(ownReplay.status, 202, ownReplay.text);
    assert.equal(ownReplay.body.id, ownSend.body.id);
    assert.equal(ownReplay.headers.get('idempotent-replayed'), 'true');
  });
});
