import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { claim } from '../../../src/jobs/claim';
import { complete } from '../../../src/jobs/complete';
import { enqueue } from '../../../src/jobs/enqueue';
import { fail } from '../../../src/jobs/fail';
import type { QueueName } from '../../../src/jobs/queues';
import { insertUser } from '../../../src/modules/accounts/accounts.repository';
import { recordOutbox } from '../../../src/modules/webhooks/webhook-outbox.repository';
import { replayIdempotent, storeIdempotent } from '../../../src/modules/sending/idempotency';
import { consumeQuota } from '../../../src/modules/quota/quota';
import type { PruneName } from '../../../src/modules/retention/prune-tables';
import { pruneTables } from '../../../src/modules/retention/prune-tables';
import { retentionPolicy } from '../../../src/modules/retention/retention-policy';
import { fanOut, WEBHOOK_QUEUE } from '../../../src/modules/webhooks/webhook-dispatch';
import { insertWebhook } from '../../../src/modules/webhooks/webhooks.repository';
import { isoNow } from '../../../src/shared/clock';
import { newId } from '../../../src/shared/ids';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const defaults = retentionPolicy({
  retentionSucceededJobsDays: 7,
  retentionFailedJobsDays: 30,
  retentionWebhookEventsDays: 7,
  captureRetentionDays: 7,
});
/** "Now" as the sweep sees it: the rows are written at the real time, the sweep runs `ms` later. */
const later = (ms: number): Date => new Date(Date.now() + ms);

describe('retention: expired rows (real database, injected clock)', () => {
  let t: TestDb;
  let db: Db;

  const prune = (now: Date, batches?: [PruneName, number][], batchSize?: number) =>
    pruneTables({
      db,
      policy: defaults,
      now,
      pauseMs: 0,
      batchSize,
      onBatch: batches ? (name, n) => batches.push([name, n]) : undefined,
    });

  const jobStates = async (): Promise<string[]> =>
    (await db.selectFrom('jobs').select('state').orderBy('id').execute()).map((r) => r.state);

  /** Claims the one due job of `queue` and settles it the way the runner does. */
  const settle = async (queue: QueueName, outcome: 'succeeded' | 'failed' | 'running'): Promise<void> => {
    const { jobs } = await claim(db, { queues: [queue], owner: 'w1', leaseMs: 60_000, limit: 1 });
    const job = jobs[0];
    assert.ok(job, `a ${queue} job to claim`);
    if (outcome === 'succeeded') assert.equal(await complete(db, job, 'w1'), true);
    if (outcome === 'failed') {
      const res = await fail(db, job, 'w1', new Error('boom'), { retryable: false });
      assert.equal(res.outcome, 'dead');
    }
  };

  before(async () => {
    t = await createTestDb();
    db = t.db;
    await insertUser(db, { id: 'usr_a', email: 'a@example.com', name: 'a', passwordHash: 'x' });
  });
  after(() => t.close());
  beforeEach(async () => {
    for (const table of [
      'jobs',
      'outbox',
      'webhooks',
      'idempotency_keys',
      'quota_buckets',
      'quota_ledger',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
  });

  it('deletes succeeded jobs after 7 days and failed ones after 30; never queued or running ones', async () => {
    // One job per queue so each claim settles the intended one.
    await enqueue(db, { queue: 'email-send', payload: { n: 1 } });
    await settle('email-send', 'succeeded');
    await enqueue(db, { queue: 'mta-outcome', payload: { n: 2 } });
    await settle('mta-outcome', 'failed');
    await enqueue(db, { queue: 'bounce-processing', payload: { n: 3 } });
    await settle('bounce-processing', 'running');
    await enqueue(db, { queue: 'inbound-processing', payload: { n: 4 } });
    assert.deepEqual(await jobStates(), ['succeeded', 'failed', 'running', 'queued']);

    let counts = await prune(later(6 * DAY));
    assert.equal(counts.succeededJobs, 0);
    assert.deepEqual(await jobStates(), ['succeeded', 'failed', 'running', 'queued']);

    counts = await prune(later(8 * DAY));
    assert.equal(counts.succeededJobs, 1);
    assert.equal(counts.failedJobs, 0);
    assert.deepEqual(await jobStates(), ['failed', 'running', 'queued']);

    counts = await prune(later(31 * DAY));
    assert.equal(counts.failedJobs, 1);
    assert.deepEqual(await jobStates(), ['running', 'queued']);

    // A year on, work not yet finished is still there.
    await prune(later(365 * DAY));
    assert.deepEqual(await jobStates(), ['running', 'queued']);
  });

  it('keeps everything of a kind whose period is 0 (forever)', async () => {
    await enqueue(db, { queue: 'email-send', payload: {} });
    await settle('email-send', 'succeeded');
    const counts = await pruneTables({
      db,
      policy: { ...defaults, succeededJobsMs: null },
      now: later(365 * DAY),
      pauseMs: 0,
    });
    assert.equal(counts.succeededJobs, 0);
    assert.deepEqual(await jobStates(), ['succeeded']);
  });

  it('deletes in batches no larger than the batch size', async () => {
    for (let i = 0; i < 7; i++) {
      await enqueue(db, { queue: 'email-send', payload: { i } });
      await settle('email-send', 'succeeded');
    }
    const batches: [PruneName, number][] = [];
    const counts = await prune(later(8 * DAY), batches, 3);
    assert.equal(counts.succeededJobs, 7);
    assert.deepEqual(batches, [
      ['succeededJobs', 3],
      ['succeededJobs', 3],
      ['succeededJobs', 1],
    ]);
    assert.deepEqual(await jobStates(), []);
  });

  it('deletes dispatched webhook events after 7 days, unless a delivery is still pending', async () => {
    const now = isoNow();
    await insertWebhook(db, {
      id: 'whk_a',
      user_id: 'usr_a',
      url: 'https://hooks.example.com/',
      events: JSON.stringify(['email.sent']),
      secret_sealed: 'v1.x.y.z.w',
      enabled: 1,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      last_success_at: null,
      last_failure_at: null,
      created_at: now,
      updated_at: now,
    });
    const event = (name: 'email.sent' | 'email.delivered') =>
      recordOutbox(db, {
        userId: 'usr_a',
        event: name,
        emailId: 'email_1',
        recipient: 'r@example.org',
        data: {},
      });
    await event('email.sent'); // subscribed: one delivery job
    await event('email.delivered'); // not subscribed: no job
    assert.deepEqual(await fanOut(db), { events: 2, deliveries: 1 });
    await event('email.sent'); // recorded after the fan-out: still pending
    const events = async () =>
      (await db.selectFrom('outbox').select(['event', 'dispatched_at']).orderBy('id').execute()).map(
        (r) => `${r.event}:${r.dispatched_at === null ? 'pending' : 'dispatched'}`,
      );

    assert.equal((await prune(later(6 * DAY))).webhookEvents, 0);
    assert.equal((await prune(later(8 * DAY))).webhookEvents, 1);
    assert.deepEqual(await events(), ['email.sent:dispatched', 'email.sent:pending']);

    // The delivery ends; its event can go (the finished job too).
    await settle(WEBHOOK_QUEUE, 'succeeded');
    const counts = await prune(later(8 * DAY));
    assert.equal(counts.webhookEvents, 1);
    assert.equal(counts.succeededJobs, 1);
    assert.deepEqual(await events(), ['email.sent:pending']);
    await prune(later(365 * DAY));
    assert.deepEqual(await events(), ['email.sent:pending']);
  });

  it('forgets idempotency keys once past the 24 h replay window (plus an hour)', async () => {
    const response = { status: 202, body: { id: 'email_1' } };
    const t0 = Date.now();
    await storeIdempotent(db, {
      userId: 'usr_a',
      mode: 'live',
      key: 'k-old',
      requestHash: 'h',
      response,
      now: t0,
    });
    await storeIdempotent(db, {
      userId: 'usr_a',
      mode: 'live',
      key: 'k-new',
      requestHash: 'h',
      response,
      now: t0 + 20 * HOUR,
    });

    assert.equal((await prune(new Date(t0 + 24.5 * HOUR))).idempotencyKeys, 0);
    assert.equal((await prune(new Date(t0 + 26 * HOUR))).idempotencyKeys, 1);
    const keys = await db.selectFrom('idempotency_keys').select('key').execute();
    assert.deepEqual(
      keys.map((k) => k.key),
      ['k-new'],
    );
    // The kept key still replays within its window.
    assert.ok(
      await replayIdempotent(db, 'usr_a', { mode: 'live', onlyDomainId: null }, 'k-new', 'h', t0 + 26 * HOUR),
    );
  });

  it('deletes quota buckets after the daily window and ledger rows after the 7-day baseline', async () => {
    const t0 = Date.now();
    await consumeQuota(db, {
      userId: 'usr_a',
      domainId: 'dom_a',
      apiKeyId: 'key_a',
      emailId: newId('email'),
      count: 2,
      limits: { hour: 100, day: 1000 },
      now: t0,
    });
    const sizes = async () => ({
      buckets: (await db.selectFrom('quota_buckets').select('minute').execute()).length,
      // Kept from the minute buckets by migration 009's triggers: an hour goes with its last minute.
      hours: (await db.selectFrom('quota_hour_buckets').select('hour').execute()).length,
      ledger: (await db.selectFrom('quota_ledger').select('id').execute()).length,
    });
    assert.deepEqual(await sizes(), { buckets: 3, hours: 3, ledger: 1 });

    let counts = await prune(new Date(t0 + 23 * HOUR));
    assert.deepEqual([counts.quotaBuckets, counts.quotaLedger], [0, 0]);
    counts = await prune(new Date(t0 + 26 * HOUR));
    assert.deepEqual([counts.quotaBuckets, counts.quotaLedger], [3, 0]);
    counts = await prune(new Date(t0 + 7 * DAY + 2 * HOUR));
    assert.equal(counts.quotaLedger, 0, 'still inside the volume-spike baseline');
    counts = await prune(new Date(t0 + 9 * DAY));
    assert.equal(counts.quotaLedger, 1);
    assert.deepEqual(await sizes(), { buckets: 0, hours: 0, ledger: 0 });
  });
});
