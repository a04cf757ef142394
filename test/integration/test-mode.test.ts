// Test-mode keys end to end (issue 21 item 1): a `re_test_` key's mail runs the whole
// pipeline in a real appliance (api, worker, Haraka) and ends in the built-in capture. The
// SMTP sink (SMTP_RELAY) and, with no relay, the fake DNS (the MX path) see nothing of it,
// while a live send beside it reaches them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { runRetention } from '../../src/modules/retention/retention.jobs';
import type { Appliance } from '../helpers/appliance';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { Schema } from '../helpers/json-schema';
import { checkSchema } from '../helpers/json-schema';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { startWebhookWorker } from '../helpers/webhook-worker';
import { openTestDatabase } from '../helpers/open-database';

const DOMAIN = 'trial.example.com';
const DAY_MS = 86_400_000;

interface Capture {
  state: string;
  unverifiedDomain: boolean;
  capturedAt: string | null;
  raw: string | null;
  html: string | null;
  text: string | null;
}

interface EmailBody {
  status: string;
  mode: string;
  capture: Capture | null;
  recipients: { email: string; status: string; smtpResponse: string | null }[];
  events: { type: string; message: string | null }[];
}

interface Payload {
  event: string;
  emailId: string;
  recipient: string;
  mode?: string;
}

type Doc = Schema & {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
};

/** The body matches what /openapi.json declares for that route and status (undeclared fields count). */
async function assertDocumented(
  app: Appliance,
  method: string,
  template: string,
  status: number,
  body: unknown,
) {
  const doc = (await app.api.get<Doc>('/openapi.json')).body;
  const schema =
    doc.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
  assert.ok(schema, `${method} ${template} ${status} has a schema`);
  assert.deepEqual(checkSchema(doc, schema, body), [], `${method} ${template} ${status}`);
}

async function createKey(app: Appliance, token: string, mode?: string) {
  const res = await app.api.post<{ token: string; mode: string; keyPrefix: string }>('/v1/api-keys', {
    token,
    body: { name: `${mode ?? 'default'} key`, ...(mode ? { mode } : {}) },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function waitForStatus(app: Appliance, key: string, id: string, status: string): Promise<EmailBody> {
  let last: EmailBody | undefined;
  await waitUntil(
    `${id} ${status} (last: ${last?.status})`,
    async () => {
      last = (await app.api.get<EmailBody>(`/v1/emails/${id}`, { token: key })).body;
      return last.status === status;
    },
    30_000,
  );
  return last!;
}

describe('test-mode keys: captured, never delivered (SMTP sink as relay)', () => {
  let sending: SendingAppliance;
  let app: Appliance;
  let receiver: Receiver;
  let worker: WebhookWorker;
  let testKey: string;

  before(async () => {
    receiver = await startReceiver();
    sending = await startSendingAppliance(DOMAIN, {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '50',
      RATE_LIMIT_EMAILS_PER_HOUR: '50',
    });
    app = sending.app;
    worker = await startWebhookWorker(app.env, { dispatchIntervalMs: 100 });
    const created = await app.api.post('/v1/webhooks', {
      token: sending.apiKey,
      body: { url: receiver.url, events: ['email.sent', 'email.delivered'] },
    });
    assert.equal(created.status, 201, created.text);
    testKey = (await createKey(app, sending.token, 'test')).token;
  });
  after(async () => {
    await worker.stop();
    await sending.stop();
    await receiver.close();
  });

  it('creates re_test_ keys with mode test; live stays the default', async () => {
    const test = await createKey(app, sending.token, 'test');
    assert.match(test.token, /^re_test_[A-Za-z0-9_-]{20,}$/);
    assert.equal(test.mode, 'test');
    assert.ok(test.keyPrefix.startsWith('re_test_'));
    await assertDocumented(app, 'post', '/v1/api-keys', 201, test);
    const live = await createKey(app, sending.token);
    assert.match(live.token, /^re_live_/);
    assert.equal(live.mode, 'live');
    const bad = await app.api.post<{ error: { code: string } }>('/v1/api-keys', {
      token: sending.token,
      body: { name: 'x', mode: 'sandbox' },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
    const list = await app.api.get<{ data: { mode: string }[] }>('/v1/api-keys', { token: testKey });
    assert.ok(list.body.data.some((k) => k.mode === 'test'));
  });

  it('captures a test send signed, marks it test everywhere, and the sink sees no connection for it', async () => {
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: testKey,
      body: {
        from: `Trial <hello@${DOMAIN}>`,
        to: 'someone@dest.test',
        subject: 'Captured, not sent',
        html: '<p>Hello from test mode</p>',
        text: 'Hello from test mode',
      },
    });
    assert.equal(sent.status, 202, sent.text);
    assert.equal(sent.headers.get('x-mailroom-test-mode'), 'captured');
    const email = await waitForStatus(app, testKey, sent.body.id, 'delivered');
    assert.equal(email.mode, 'test');
    assert.equal(email.recipients[0]?.status, 'delivered');
    assert.match(email.recipients[0]?.smtpResponse ?? '', /Captured by Mailroom test mode/);
    assert.deepEqual(
      email.events.map((e) => e.type),
      ['queued', 'processing', 'sent', 'delivered'],
    );
    await assertDocumented(app, 'get', '/v1/emails/{id}', 200, email);
    const capture = email.capture!;
    assert.equal(capture.state, 'captured');
    assert.equal(capture.unverifiedDomain, false);
    assert.equal(capture.raw, `/v1/emails/${sent.body.id}/raw`);
    assert.equal(capture.html, `/v1/emails/${sent.body.id}/preview?part=html`);
    assert.equal(capture.text, `/v1/emails/${sent.body.id}/preview?part=text`);

    const raw = await app.api.get(capture.raw, { token: testKey });
    assert.equal(raw.status, 200);
    assert.match(raw.headers.get('content-type') ?? '', /^message\/rfc822/);
    // DKIM-signed by the domain's key, as the MTA would have signed it.
    assert.ok(raw.text.startsWith('DKIM-Signature: '), raw.text.slice(0, 200));
    // The first header field, unfolded (RFC 5322 §2.2.3).
    const signature = raw.text.replace(/\r\n[ \t]+/g, ' ').split('\r\n')[0] ?? '';
    assert.ok(signature.includes(`d=${DOMAIN};`), signature);
    assert.match(raw.text, /\r\nSubject: Captured, not sent\r\n/);

    // A live send after it reaches the sink: the relay works, and carried only the live one.
    const live = await app.api.post<{ id: string }>('/v1/emails', {
      token: sending.apiKey,
      body: { from: `hello@${DOMAIN}`, to: 'other@dest.test', subject: 'Live', text: 'Live' },
    });
    assert.equal(live.status, 202, live.text);
    assert.equal(live.headers.get('x-mailroom-test-mode'), null);
    await sending.sink.waitForMessages(1);
    await waitForStatus(app, sending.apiKey, live.body.id, 'delivered');
    assert.equal(sending.sink.rcptAttempts('someone@dest.test'), 0);
    assert.deepEqual(
      sending.sink.messages.map((m) => m.rcptTo),
      [['other@dest.test']],
    );
    const liveView = (await app.api.get<EmailBody>(`/v1/emails/${live.body.id}`, { token: sending.apiKey }))
      .body;
    assert.equal(liveView.mode, 'live');
    assert.equal(liveView.capture, null);
    // Live mail is not captured: its raw download is built as the hand-off builds it (issue 19),
    // so it carries no DKIM-Signature (the MTA adds that on the way out).
    const liveRaw = await app.api.get(`/v1/emails/${live.body.id}/raw`, { token: sending.apiKey });
    assert.equal(liveRaw.status, 200);
    assert.equal(liveRaw.headers.get('content-type'), 'message/rfc822');
    assert.doesNotMatch(liveRaw.text, /^DKIM-Signature:/im);

    // Webhook payloads of test mail say so; live ones are unchanged.
    const payloads = (): Payload[] => receiver.requests.map((q) => JSON.parse(q.body) as Payload);
    await waitUntil('test and live webhooks', () =>
      [sent.body.id, live.body.id].every((id) =>
        payloads().some((p) => p.emailId === id && p.event === 'email.delivered'),
      ),
    );
    for (const p of payloads()) {
      if (p.emailId === sent.body.id) assert.equal(p.mode, 'test', JSON.stringify(p));
      if (p.emailId === live.body.id) assert.equal(p.mode, undefined, JSON.stringify(p));
    }

    // Stats count live mail only.
    const stats = await app.api.get<{ totals: Record<string, number> }>('/v1/stats/overview', {
      token: sending.apiKey,
    });
    assert.equal(stats.body.totals.delivered, 1, JSON.stringify(stats.body.totals));
  });

  it('sends from a domain added but not verified with a test key only, and says so', async () => {
    const added = await app.api.post<{ id: string }>('/v1/domains', {
      token: sending.token,
      body: { domain: 'unverified.example.org' },
    });
    assert.equal(added.status, 201, added.text);
    const body = { from: 'hi@unverified.example.org', to: 'x@dest.test', subject: 'Trial', text: 'Hi' };
    const refused = await app.api.post<{ error: { code: string } }>('/v1/emails', {
      token: sending.apiKey,
      body,
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'DOMAIN_NOT_VERIFIED');

    const sent = await app.api.post<{ id: string }>('/v1/emails', { token: testKey, body });
    assert.equal(sent.status, 202, sent.text);
    assert.equal(sent.headers.get('x-mailroom-test-mode'), 'unverified-domain');
    const email = await waitForStatus(app, testKey, sent.body.id, 'delivered');
    assert.equal(email.capture?.state, 'captured');
    assert.equal(email.capture?.unverifiedDomain, true);
    assert.equal(email.capture?.html, null, 'no HTML part was sent');
    assert.equal(sending.sink.rcptAttempts('x@dest.test'), 0);
  });

  it('shows a scheduled test message pending, and none once cancelled', async () => {
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: testKey,
      body: {
        from: `hello@${DOMAIN}`,
        to: 'later@dest.test',
        subject: 'Later',
        text: 'Later',
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    assert.equal(sent.status, 202, sent.text);
    const view = async () =>
      (await app.api.get<EmailBody>(`/v1/emails/${sent.body.id}`, { token: testKey })).body.capture;
    assert.equal((await view())?.state, 'pending');
    const cancelled = await app.api.post(`/v1/emails/${sent.body.id}/cancel`, { token: testKey });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal((await view())?.state, 'none');
  });

  it('counts test and live sends against separate quota counters', async () => {
    // A fresh account: its live and test counters both start at 0 (limit 50 an hour).
    const account = await app.api.registerWithKey();
    await app.api.post(`/v1/domains`, { token: account.token, body: { domain: 'quota.example.net' } });
    const key = (await createKey(app, account.token, 'test')).token;
    const send = (token: string, to: string[]) =>
      app.api.post('/v1/emails', {
        token,
        body: { from: 'q@quota.example.net', to, subject: 'q', text: 'q' },
      });
    const remaining = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));
    const t1 = await send(key, ['a@dest.test', 'b@dest.test']);
    assert.equal(t1.status, 202, t1.text);
    assert.equal(remaining(t1), 48);
    const t2 = await send(key, ['c@dest.test']);
    assert.equal(remaining(t2), 47);
    // The domain is not verified, so a live key cannot send from it: the account's live
    // counter is checked through settings instead.
    const settings = await app.api.get<{ usage: { hour: { used: number } } }>('/v1/settings', {
      token: account.token,
    });
    assert.equal(settings.body.usage.hour.used, 0, JSON.stringify(settings.body));
    // And the other way round: live sends of the main account leave its test counter alone.
    const t3 = await app.api.post('/v1/emails', {
      token: testKey,
      body: { from: `hello@${DOMAIN}`, to: 'q1@dest.test', subject: 'q', text: 'q' },
    });
    const l1 = await app.api.post('/v1/emails', {
      token: sending.apiKey,
      body: { from: `hello@${DOMAIN}`, to: 'q2@dest.test', subject: 'q', text: 'q' },
    });
    assert.equal(t3.status, 202, t3.text);
    assert.equal(l1.status, 202, l1.text);
    // Main account so far: live 1 (other@) before this, test 2 before this.
    assert.equal(remaining(t3), 47, 'test counter: 3 test recipients');
    assert.equal(remaining(l1), 48, 'live counter: 2 live recipients');
  });

  it('retention deletes captured mail after CAPTURE_RETENTION_DAYS; the message stays, its capture says pruned', async () => {
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: testKey,
      body: { from: `hello@${DOMAIN}`, to: 'kept@dest.test', subject: 'Short-lived', text: 'Bye' },
    });
    assert.equal(sent.status, 202, sent.text);
    await waitForStatus(app, testKey, sent.body.id, 'delivered');
    const { config } = loadConfig({ ...app.env, CAPTURE_RETENTION_DAYS: '3' });
    const db = openTestDatabase(config.databaseUrl);
    try {
      const run = (days: number) =>
        runRetention({ db, config, now: new Date(Date.now() + days * DAY_MS), pauseMs: 0 });
      assert.equal((await run(2)).rows.capturedMessages, 0);
      assert.equal((await app.api.get(`/v1/emails/${sent.body.id}/raw`, { token: testKey })).status, 200);
      const swept = await run(3.5);
      assert.ok(swept.rows.capturedMessages >= 1, JSON.stringify(swept.rows));
    } finally {
      await db.destroy();
    }
    const email = (await app.api.get<EmailBody>(`/v1/emails/${sent.body.id}`, { token: testKey })).body;
    assert.equal(email.status, 'delivered');
    assert.equal(email.capture?.state, 'pruned');
    assert.equal(email.capture?.raw, null);
    const gone = await app.api.get<{ error: { code: string } }>(`/v1/emails/${sent.body.id}/raw`, {
      token: testKey,
    });
    assert.equal(gone.status, 404);
  });

  it('deletes a domain that only sent test mail, its test messages with it; live history keeps a domain (409 says why)', async () => {
    const added = await app.api.post<{ id: string }>('/v1/domains', {
      token: sending.token,
      body: { domain: 'tried-only.example.org' },
    });
    assert.equal(added.status, 201, added.text);
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: testKey,
      body: { from: 'hi@tried-only.example.org', to: 'y@dest.test', subject: 'Trial', text: 'Hi' },
    });
    assert.equal(sent.status, 202, sent.text);
    await waitForStatus(app, testKey, sent.body.id, 'delivered');

    const deleted = await app.api.delete<{ id: string; deleted: boolean }>(`/v1/domains/${added.body.id}`, {
      token: sending.token,
    });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.deleted, true);
    const gone = await app.api.get<{ error: { code: string } }>(`/v1/emails/${sent.body.id}`, {
      token: testKey,
    });
    assert.equal(gone.status, 404, 'the test message went with its domain');

    // The sending domain has live mail (the webhook and capture tests above sent beside it).
    const live = await app.api.post<{ id: string }>('/v1/emails', {
      token: sending.apiKey,
      body: { from: `hi@${DOMAIN}`, to: 'z@dest.test', subject: 'Live', text: 'Hi' },
    });
    assert.equal(live.status, 202, live.text);
    const kept = await app.api.delete<{ error: { code: string; message: string } }>(
      `/v1/domains/${sending.domain.id}`,
      { token: sending.token },
    );
    assert.equal(kept.status, 409, kept.text);
    assert.equal(kept.body.error.code, 'DOMAIN_HAS_HISTORY');
    assert.match(kept.body.error.message, /live mail/);
    assert.match(kept.body.error.message, /revoke/i, 'says what to do instead');
  });
});

describe('test-mode keys: the MX path sees no lookup (no relay, fake DNS)', () => {
  let sending: SendingAppliance;

  before(async () => {
    sending = await startSendingAppliance('mxpath.example.com', { SMTP_RELAY: '' });
  });
  after(async () => {
    await sending.stop();
  });

  it('a test send asks DNS nothing about its recipient; a live one beside it looks up the MX', async () => {
    const { app, dns } = sending;
    const testKey = (await createKey(app, sending.token, 'test')).token;
    const test = await app.api.post<{ id: string }>('/v1/emails', {
      token: testKey,
      body: { from: 'a@mxpath.example.com', to: 'x@captured-only.test', subject: 's', text: 't' },
    });
    assert.equal(test.status, 202, test.text);
    await waitForStatus(app, testKey, test.body.id, 'delivered');
    const live = await app.api.post<{ id: string }>('/v1/emails', {
      token: sending.apiKey,
      body: { from: 'a@mxpath.example.com', to: 'y@live-mx.test', subject: 's', text: 't' },
    });
    assert.equal(live.status, 202, live.text);
    await waitUntil(
      'the live MX lookup',
      () => dns.queries.some((q) => q.name.endsWith('live-mx.test')),
      30_000,
    );
    assert.deepEqual(
      dns.queries.filter((q) => q.name.includes('captured-only')),
      [],
    );
  });
});
