// Issue 29 item 10 (and 6): each attempt in the log shows the request it sent (headers with the
// signatures, the body) and whether it was test traffic; POST /v1/webhooks/{id}/attempts/
// {attemptId}/redeliver sends an attempt's event again as a new delivery. Real api, worker and
// MTA processes, real SQLite, a receiver on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { Schema } from '../helpers/json-schema';
import { checkSchema } from '../helpers/json-schema';
import { openApplianceDb } from '../helpers/open-database';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';

interface Attempt {
  id: string;
  deliveryId: string;
  event: string;
  attempt: number;
  succeeded: boolean;
  request: { headers: Record<string, string>; body: string } | null;
  mode: 'live' | 'test';
  redeliveryOf: string | null;
}

interface Detail {
  id: string;
  secret: string;
  attempts: Attempt[];
}

interface Queued {
  webhookId: string;
  attemptId: string;
  event: string;
  deliveryId: string;
  redeliveryOf: string;
  error: { code: string; message: string };
}

type Doc = Schema & {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
};

describe('webhook attempts: the request sent, test marks, redelivery', () => {
  let app: Appliance;
  let db: Db;
  let receiver: Receiver;
  let token: string;
  let userId: string;
  let hook: Detail;
  let doc: Doc;

  const detail = async (id = hook.id): Promise<Detail> => {
    const res = await app.api.get<Detail>(`/v1/webhooks/${id}`, { token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const attemptOf = async (deliveryId: string): Promise<Attempt> => {
    let found: Attempt | undefined;
    await waitUntil(
      `the attempt of ${deliveryId}`,
      async () => {
        found = (await detail()).attempts.find((a) => a.deliveryId === deliveryId);
        return found !== undefined;
      },
      20_000,
    );
    return found!;
  };
  const documented = (method: string, template: string, status: number, body: unknown): void => {
    const schema =
      doc.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
    assert.ok(schema, `${method} ${template} ${status} has a schema`);
    assert.deepEqual(checkSchema(doc, schema, body), [], `${method} ${template} ${status}`);
  };
  const redeliver = (attemptId: string, as = token, id = hook.id) =>
    app.api.post<Queued>(`/v1/webhooks/${id}/attempts/${attemptId}/redeliver`, { token: as });

  before(async () => {
    receiver = await startReceiver();
    // The whole appliance: a test-mode send is captured by the hand-off, which waits for the MTA.
    app = await startAppliance({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    db = openApplianceDb(app);
    ({ token, userId } = await app.api.register());
    const created = await app.api.post<Detail>('/v1/webhooks', {
      token,
      body: { url: receiver.url, events: ['email.sent', 'email.delivered'] },
    });
    assert.equal(created.status, 201, created.text);
    hook = created.body;
    doc = (await app.api.get<Doc>('/openapi.json')).body;
  });
  after(async () => {
    await db.destroy();
    await app.stop();
    await receiver.close();
  });

  it('keeps the request each attempt sent: the body and headers the receiver got, signature included, never the secret', async () => {
    const test = await app.api.post<{ deliveryId: string }>(`/v1/webhooks/${hook.id}/test`, { token });
    assert.equal(test.status, 202, test.text);
    const attempt = await attemptOf(test.body.deliveryId);
    const got = receiver.requests.find((q) => q.headers['x-mail-delivery-id'] === test.body.deliveryId);
    assert.ok(got, 'the receiver got the test event');
    assert.ok(attempt.request, 'the attempt has its request');
    assert.equal(attempt.request.body, got.body);
    const sent = Object.fromEntries(
      Object.entries(attempt.request.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    for (const name of [
      'x-mail-signature',
      'x-mail-event',
      'x-mail-delivery-id',
      'webhook-signature',
      'content-type',
    ]) {
      assert.equal(sent[name], got.headers[name], name);
    }
    // The signature shown verifies over the body shown, with the secret that is not shown.
    assert.ok(verifySignature(hook.secret, sent['x-mail-signature'], attempt.request.body));
    assert.ok(!JSON.stringify(attempt).includes(hook.secret), 'the secret is never in the attempt');
    // A test event is test traffic.
    assert.equal(attempt.mode, 'test');
    assert.equal(attempt.redeliveryOf, null);
    documented('get', '/v1/webhooks/{id}', 200, await detail());
  });

  it('marks the attempts of test-mode mail test, and live mail live', async () => {
    const domain = await app.api.post('/v1/domains', { token, body: { domain: 'trial.example.org' } });
    assert.equal(domain.status, 201, domain.text);
    const key = async (mode: string) =>
      (await app.api.post<{ token: string }>('/v1/api-keys', { token, body: { name: mode, mode } })).body
        .token;
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: await key('test'),
      body: { from: 'hi@trial.example.org', to: 'x@dest.test', subject: 'Trial', text: 'Hi' },
    });
    assert.equal(sent.status, 202, sent.text);
    let attempts: Attempt[] = [];
    await waitUntil(
      'attempts of the test email',
      async () => {
        attempts = (await detail()).attempts.filter((a) => a.request?.body.includes(sent.body.id));
        return attempts.some((a) => a.event === 'email.delivered');
      },
      30_000,
    );
    assert.deepEqual(
      attempts.map((a) => a.mode),
      attempts.map(() => 'test'),
    );
    // A live event: the spec's payload without `mode` (what fan-out of live mail records).
    await db
      .insertInto('outbox')
      .values({
        id: 'obx_live_1',
        user_id: userId,
        event: 'email.sent',
        email_id: 'email_live_1',
        recipient: 'r@dest.test',
        payload: JSON.stringify({
          event: 'email.sent',
          emailId: 'email_live_1',
          timestamp: new Date().toISOString(),
          recipient: 'r@dest.test',
        }),
        created_at: new Date().toISOString(),
        dispatched_at: null,
      })
      .execute();
    await waitUntil(
      'the live attempt',
      async () => (await detail()).attempts.some((a) => a.request?.body.includes('email_live_1')),
      20_000,
    );
    const live = (await detail()).attempts.find((a) => a.request?.body.includes('email_live_1'));
    assert.equal(live?.mode, 'live');
  });

  it('redelivers an attempt: a new delivery id, the same body, marked as a redelivery, audited', async () => {
    const original = (await detail()).attempts.find((a) => a.event === 'webhook.test');
    assert.ok(original?.request);
    const before = receiver.requests.length;
    const res = await redeliver(original.id);
    assert.equal(res.status, 202, res.text);
    documented('post', '/v1/webhooks/{id}/attempts/{attemptId}/redeliver', 202, res.body);
    assert.equal(res.body.webhookId, hook.id);
    assert.equal(res.body.attemptId, original.id);
    assert.equal(res.body.event, 'webhook.test');
    assert.equal(res.body.redeliveryOf, original.deliveryId);
    assert.notEqual(res.body.deliveryId, original.deliveryId);
    assert.match(res.body.deliveryId, /^whd_/);

    const again = await attemptOf(res.body.deliveryId);
    assert.equal(again.redeliveryOf, original.deliveryId);
    assert.equal(again.attempt, 1);
    assert.equal(again.request?.body, original.request.body, 'the same event body');
    const got = receiver.requests
      .slice(before)
      .find((q) => q.headers['x-mail-delivery-id'] === res.body.deliveryId);
    assert.ok(got, 'the receiver got the redelivery');
    assert.equal(got.body, original.request.body);
    assert.ok(verifySignature(hook.secret, got.headers['x-mail-signature'] as string, got.body));

    // Twice is two deliveries (each asked for), not one deduplicated away.
    const twice = await redeliver(original.id);
    assert.equal(twice.status, 202, twice.text);
    await attemptOf(twice.body.deliveryId);

    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('resource_id', '=', hook.id)
      .where('action', '=', 'webhook.redelivered')
      .orderBy('id')
      .execute();
    assert.equal(audit.length, 2);
    assert.equal(audit[0]?.actor_type, 'user');
    assert.equal(audit[0]?.actor_id, userId);
    assert.deepEqual(JSON.parse(audit[0]?.details ?? '{}'), {
      attemptId: original.id,
      event: 'webhook.test',
      deliveryId: res.body.deliveryId,
      redeliveryOf: original.deliveryId,
    });
  });

  it("is scoped to the account: another account's webhook or attempt is not found", async () => {
    const attemptId = (await detail()).attempts[0]!.id;
    const other = await app.api.register();
    const theirs = await redeliver(attemptId, other.token);
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, 'WEBHOOK_NOT_FOUND');
    // Their own endpoint, our attempt id.
    const own = await app.api.post<Detail>('/v1/webhooks', {
      token: other.token,
      body: { url: receiver.url, events: ['email.sent'] },
    });
    assert.equal(own.status, 201, own.text);
    const crossed = await redeliver(attemptId, other.token, own.body.id);
    assert.equal(crossed.status, 404);
    assert.equal(crossed.body.error.code, 'WEBHOOK_ATTEMPT_NOT_FOUND');
    const unknown = await redeliver('01jzzzzzzzzzzzzzzzzzzzzzzz');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'WEBHOOK_ATTEMPT_NOT_FOUND');
    const audit = await db
      .selectFrom('audit_log')
      .select('id')
      .where('user_id', '=', other.userId)
      .where('action', '=', 'webhook.redelivered')
      .execute();
    assert.deepEqual(audit, []);
  });

  it('refuses a disabled endpoint, an event no longer kept, and a deleted endpoint, in words', async () => {
    const attempt = (await detail()).attempts.find((a) => a.event === 'webhook.test')!;
    await app.api.patch(`/v1/webhooks/${hook.id}`, { token, body: { enabled: false } });
    const disabled = await redeliver(attempt.id);
    assert.equal(disabled.status, 409);
    assert.equal(disabled.body.error.code, 'WEBHOOK_DISABLED');
    assert.match(disabled.body.error.message, /enable it .* before redelivering/);
    await app.api.post(`/v1/webhooks/${hook.id}/enable`, { token });

    // As retention leaves an event older than RETENTION_WEBHOOK_EVENTS_DAYS.
    const live = (await detail()).attempts.find((a) => a.request?.body.includes('email_live_1'))!;
    await db.deleteFrom('outbox').where('id', '=', 'obx_live_1').execute();
    const expired = await redeliver(live.id);
    assert.equal(expired.status, 409);
    assert.equal(expired.body.error.code, 'WEBHOOK_EVENT_EXPIRED');

    assert.equal((await app.api.delete(`/v1/webhooks/${hook.id}`, { token })).status, 200);
    const deleted = await redeliver(attempt.id);
    assert.equal(deleted.status, 404);
    assert.equal(deleted.body.error.code, 'WEBHOOK_NOT_FOUND');
  });
});
