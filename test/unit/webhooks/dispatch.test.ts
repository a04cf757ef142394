import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { insertUser } from '../../../src/modules/accounts/accounts.repository';
import type { WebhookEventName } from '../../../src/modules/webhooks/webhook-outbox.repository';
import { recordOutbox } from '../../../src/modules/webhooks/webhook-outbox.repository';
import { retryDelayMs } from '../../../src/modules/webhooks/webhook-delivery';
import type { DeliverJob } from '../../../src/modules/webhooks/webhook-dispatch';
import {
  fanOut,
  pruneDispatchJobs,
  scheduleDispatch,
  WEBHOOK_QUEUE,
} from '../../../src/modules/webhooks/webhook-dispatch';
import { insertWebhook } from '../../../src/modules/webhooks/webhooks.repository';
import { isoNow } from '../../../src/shared/clock';
import { newId } from '../../../src/shared/ids';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

describe('webhook fan-out from the outbox (real database)', () => {
  let t: TestDb;
  let db: Db;
  const users = { a: 'usr_a', b: 'usr_b' };

  const hook = async (userId: string, events: string[], enabled = true): Promise<string> => {
    const id = newId('whk');
    const now = isoNow();
    await insertWebhook(db, {
      id,
      user_id: userId,
      url: 'https://hooks.example.com/',
      events: JSON.stringify(events),
      secret_sealed: 'v1.x.y.z.w',
      enabled: enabled ? 1 : 0,
      disabled_reason: enabled ? null : 'manual',
      disabled_at: null,
      consecutive_failures: 0,
      last_success_at: null,
      last_failure_at: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  const event = (userId: string, name: WebhookEventName): Promise<void> =>
    recordOutbox(db, { userId, event: name, emailId: 'email_1', recipient: 'r@example.org', data: {} });
  const deliveryJobs = async (): Promise<(DeliverJob & { key: string | null })[]> => {
    const rows = await db
      .selectFrom('jobs')
      .select(['payload', 'dedupe_key'])
      .where('queue', '=', WEBHOOK_QUEUE)
      .orderBy('id')
      .execute();
    return rows
      .map((r) => ({ ...(JSON.parse(r.payload) as DeliverJob), key: r.dedupe_key }))
      .filter((j) => j.kind === 'deliver');
  };

  before(async () => {
    t = await createTestDb();
    db = t.db;
    for (const id of Object.values(users)) {
      await insertUser(db, { id, email: `${id}@example.com`, name: id, passwordHash: 'x' });
    }
  });
  after(() => t.close());
  beforeEach(async () => {
    await db.deleteFrom('jobs').execute();
    await db.deleteFrom('outbox').execute();
    await db.deleteFrom('webhooks').execute();
  });

  it('queues one delivery per event and subscribed enabled endpoint of the same account', async () => {
    const h1 = await hook(users.a, ['email.sent', 'email.bounced']);
    const h2 = await hook(users.a, ['email.delivered']);
    await hook(users.a, ['email.sent'], false);
    const h4 = await hook(users.b, ['email.sent']);
    await event(users.a, 'email.sent');
    await event(users.a, 'email.delivered');
    await event(users.b, 'email.sent');
    await event(users.a, 'email.complained');

    assert.deepEqual(await fanOut(db), { events: 4, deliveries: 3 });
    const jobs = await deliveryJobs();
    const outbox = await db.selectFrom('outbox').selectAll().orderBy('id').execute();
    const [sentA, deliveredA, sentB] = outbox;
    assert.deepEqual(
      jobs.map((j) => [j.outboxId, j.webhookId, j.attempt, j.key]),
      [
        [sentA!.id, h1, 1, `${sentA!.id}:${h1}`],
        [deliveredA!.id, h2, 1, `${deliveredA!.id}:${h2}`],
        [sentB!.id, h4, 1, `${sentB!.id}:${h4}`],
      ],
    );
    assert.equal(new Set(jobs.map((j) => j.deliveryId)).size, 3);
    for (const j of jobs) assert.match(j.deliveryId, /^whd_[0-9a-z]{26}$/);
    assert.ok(
      outbox.every((r) => r.dispatched_at !== null),
      'every row marked dispatched, subscribers or not',
    );
  });

  it('is idempotent: a second sweep finds nothing, and a row swept twice still yields one delivery', async () => {
    const h1 = await hook(users.a, ['email.sent']);
    await event(users.a, 'email.sent');
    assert.deepEqual(await fanOut(db), { events: 1, deliveries: 1 });
    assert.deepEqual(await fanOut(db), { events: 0, deliveries: 0 });
    const first = await deliveryJobs();

    // As if the row had been read by two sweeps: the dedupe key admits the first job only.
    await db.updateTable('outbox').set({ dispatched_at: null }).execute();
    assert.deepEqual(await fanOut(db), { events: 1, deliveries: 0 });
    const second = await deliveryJobs();
    assert.deepEqual(second, first);
    assert.equal(second[0]?.webhookId, h1);
  });

  it('drains more than one batch in a sweep', async () => {
    await hook(users.a, ['email.sent']);
    for (let i = 0; i < 250; i++) await event(users.a, 'email.sent');
    assert.deepEqual(await fanOut(db), { events: 250, deliveries: 250 });
    assert.equal((await deliveryJobs()).length, 250);
  });

  it('schedules one sweep per slot and prunes finished old ones', async () => {
    const now = new Date('2030-01-01T00:00:00.400Z');
    const a = await scheduleDispatch(db, { now, slot: 'next' });
    const b = await scheduleDispatch(db, { now: new Date('2030-01-01T00:00:00.900Z'), slot: 'next' });
    assert.equal(a.created, true);
    assert.equal(b.id, a.id);
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    assert.equal(row.run_at, '2030-01-01T00:00:01.000Z');
    assert.equal(row.dedupe_key, 'dispatch:2030-01-01T00:00:01.000Z');

    await db.updateTable('jobs').set({ state: 'succeeded' }).where('id', '=', a.id).execute();
    assert.equal(await pruneDispatchJobs(db, new Date('2030-01-01T00:00:30.000Z')), 0);
    assert.equal(await pruneDispatchJobs(db, new Date('2030-01-01T00:01:02.000Z')), 1);
  });
});

describe('webhook retry backoff', () => {
  it('doubles from WEBHOOK_RETRY_BASE_MS with up to 25 % jitter', () => {
    assert.equal(
      retryDelayMs(1, 1000, () => 0),
      1000,
    );
    assert.equal(
      retryDelayMs(1, 1000, () => 1),
      1250,
    );
    assert.equal(
      retryDelayMs(2, 1000, () => 0),
      2000,
    );
    assert.equal(
      retryDelayMs(5, 30_000, () => 0),
      480_000,
    );
    assert.equal(
      retryDelayMs(40, 30_000, () => 0),
      6 * 3600_000,
    );
  });
});
