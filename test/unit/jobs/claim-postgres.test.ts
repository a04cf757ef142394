import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { migrate, openDatabase } from '../../../src/db/connect';
import { claim, LEASE_EXPIRED_ERROR } from '../../../src/jobs/claim';
import { complete } from '../../../src/jobs/complete';
import { enqueue } from '../../../src/jobs/enqueue';
import { extendLease } from '../../../src/jobs/extend-lease';
import { fail } from '../../../src/jobs/fail';
import { queueDepths } from '../../../src/jobs/queue-stats';
import { requirePostgres, testPostgresUrl } from '../../helpers/postgres';
import { runClaimers } from './claimers';

const at = (ms: number): Date => new Date(Date.now() + ms);

/*
 * The job table on PostgreSQL (issue 23 item 2): the FOR UPDATE SKIP LOCKED claim,
 * its lease semantics, and the statements around it, on a real server under READ
 * COMMITTED with several connections at once. The same claim tests run on SQLite in
 * claim.test.ts.
 */
void describe('the job claim on PostgreSQL', requirePostgres(), () => {
  let url: string;
  let db: Db;
  let other: Db;
  before(async () => {
    url = await testPostgresUrl();
    db = openDatabase(url, { poolSize: 4 });
    await migrate(db);
    other = openDatabase(url, { poolSize: 4 });
  });
  after(async () => {
    await other.destroy();
    await db.destroy();
  });
  beforeEach(async () => {
    await db.deleteFrom('jobs').execute();
  });

  void it('never hands the same job to two of 4 claimers on separate connections, and loses none', async () => {
    const total = 800;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i++) await enqueue(trx, { queue: 'email-send', payload: { i } });
    });
    const runs = await runClaimers(url, ['c1', 'c2', 'c3', 'c4'], 3);
    const all = runs.flatMap((r) => r.ids);
    assert.equal(new Set(all).size, all.length, 'no job claimed twice');
    assert.equal(all.length, total, 'every job claimed');
    assert.ok(
      runs.filter((r) => r.ids.length > 0).length >= 2,
      `claimers overlapped (${runs.map((r) => r.ids.length).join('/')})`,
    );
    const rows = await db.selectFrom('jobs').select(['id', 'lease_owner', 'attempts', 'state']).execute();
    const ownerOf = new Map(runs.flatMap((r) => r.ids.map((id) => [id, r.owner] as const)));
    for (const row of rows) {
      assert.equal(row.state, 'running');
      assert.equal(row.attempts, 1);
      assert.equal(row.lease_owner, ownerOf.get(row.id));
    }
  });

  // Without SKIP LOCKED, w2 waits on w1's row while w1 waits on w2: the timeout turns that into a failure.
  void it(
    'passes over a row another transaction holds instead of waiting for it',
    { timeout: 10_000 },
    async () => {
      const a = await enqueue(db, { queue: 'email-send', payload: { n: 1 }, runAt: at(-2_000) });
      const b = await enqueue(db, { queue: 'email-send', payload: { n: 2 }, runAt: at(-1_000) });
      await db.transaction().execute(async (trx) => {
        const held = await claim(trx, { queues: ['email-send'], owner: 'w1', leaseMs: 60_000, limit: 1 });
        assert.deepEqual(
          held.jobs.map((j) => j.id),
          [a.id],
        );
        // w1 has not committed: without SKIP LOCKED, w2 would wait here for w1's row.
        const next = await claim(other, { queues: ['email-send'], owner: 'w2', leaseMs: 60_000, limit: 5 });
        assert.deepEqual(
          next.jobs.map((j) => j.id),
          [b.id],
        );
      });
    },
  );

  void it('re-claims a job whose lease expired and counts another attempt', async () => {
    const { id } = await enqueue(db, { queue: 'email-send', payload: {} });
    await claim(db, { queues: ['email-send'], owner: 'crashed', leaseMs: 1_000, limit: 1 });
    const during = await claim(other, {
      queues: ['email-send'],
      owner: 'w2',
      leaseMs: 1_000,
      limit: 1,
      now: at(500),
    });
    assert.deepEqual(during.jobs, []);
    const fresh = await enqueue(db, { queue: 'email-send', payload: { fresh: true }, runAt: at(-60_000) });
    const after = await claim(other, {
      queues: ['email-send'],
      owner: 'w2',
      leaseMs: 1_000,
      limit: 1,
      now: at(1_500),
    });
    assert.deepEqual(
      after.jobs.map((j) => [j.id, j.attempts]),
      [[id, 2]],
      'the expired lease goes first, before an older due job',
    );
    const row = await db
      .selectFrom('jobs')
      .select(['lease_owner', 'state'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { lease_owner: 'w2', state: 'running' });
    const rest = await claim(other, { queues: ['email-send'], owner: 'w2', leaseMs: 1_000, limit: 5 });
    assert.deepEqual(
      rest.jobs.map((j) => j.id),
      [fresh.id],
    );
  });

  void it('makes a job terminal when its lease expires on the last attempt, and reports it once', async () => {
    const { id } = await enqueue(db, { queue: 'email-send', payload: {}, maxAttempts: 2 });
    await claim(db, { queues: ['email-send'], owner: 'a', leaseMs: 1_000, limit: 1 });
    await claim(db, { queues: ['email-send'], owner: 'b', leaseMs: 1_000, limit: 1, now: at(1_500) });
    // Two claimers find the dead job at once: one of them reports it.
    const [c, d] = await Promise.all([
      claim(db, { queues: ['email-send'], owner: 'c', leaseMs: 1_000, limit: 1, now: at(3_000) }),
      claim(other, { queues: ['email-send'], owner: 'd', leaseMs: 1_000, limit: 1, now: at(3_000) }),
    ]);
    assert.deepEqual([...c.jobs, ...d.jobs], []);
    assert.deepEqual([...c.dead, ...d.dead], [{ id, queue: 'email-send', attempts: 2 }]);
    const row = await db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'last_error', 'finished_at', 'lease_expires_at'])
      .executeTakeFirstOrThrow();
    assert.equal(row.state, 'failed');
    assert.equal(row.attempts, 2);
    assert.equal(row.last_error, LEASE_EXPIRED_ERROR);
    assert.ok(row.finished_at);
    assert.equal(row.lease_expires_at, null);
    const later = await claim(db, {
      queues: ['email-send'],
      owner: 'c',
      leaseMs: 1_000,
      limit: 1,
      now: at(9_000),
    });
    assert.deepEqual(later, { jobs: [], dead: [] });
  });

  void it('refuses every write of a stale lease holder once another claim took the job (attempts + owner)', async () => {
    await enqueue(db, { queue: 'webhook-delivery', payload: {} });
    const stale = (await claim(db, { queues: ['webhook-delivery'], owner: 'w1', leaseMs: 1_000, limit: 1 }))
      .jobs[0]!;
    // w1 stalled past its lease; w1 itself (same owner, a later attempt) and then w2 re-claim.
    const again = (
      await claim(other, {
        queues: ['webhook-delivery'],
        owner: 'w1',
        leaseMs: 1_000,
        limit: 1,
        now: at(1_500),
      })
    ).jobs[0]!;
    assert.equal(again.attempts, 2);
    assert.equal(await complete(db, stale, 'w1'), false, 'same owner, older attempt');
    assert.equal(await extendLease(db, stale, 'w1', 60_000), false);
    assert.deepEqual(await fail(db, stale, 'w1', new Error('late'), { retryable: true }), {
      outcome: 'lost',
    });
    assert.equal(await complete(db, again, 'w2'), false, 'right attempt, wrong owner');
    assert.equal(await complete(db, again, 'w1'), true);
    const row = await db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'lease_owner'])
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { state: 'succeeded', attempts: 2, lease_owner: 'w1' });
  });

  void it('retries a failed attempt after its backoff and settles under the lease only', async () => {
    await enqueue(db, { queue: 'webhook-delivery', payload: {} });
    const job = (await claim(db, { queues: ['webhook-delivery'], owner: 'w', leaseMs: 1_000, limit: 1 }))
      .jobs[0]!;
    const outcome = await fail(db, job, 'w', new Error('boom'), { retryable: true, retryDelayMs: 5_000 });
    assert.equal(outcome.outcome, 'retry');
    assert.deepEqual(
      (await claim(db, { queues: ['webhook-delivery'], owner: 'w', leaseMs: 1_000, limit: 1 })).jobs,
      [],
    );
    const retried = await claim(db, {
      queues: ['webhook-delivery'],
      owner: 'w',
      leaseMs: 1_000,
      limit: 1,
      now: at(6_000),
    });
    assert.equal(retried.jobs[0]?.attempts, 2);
  });

  void it('enqueues once per (queue, dedupe key) when many connections race for the key', async () => {
    const dbs = [db, other, db, other, db, other];
    const results = await Promise.all(
      dbs.map((d, i) =>
        d
          .transaction()
          .execute((trx) =>
            enqueue(trx, { queue: 'retention', payload: { i }, dedupeKey: 'run:2026-11-26T19:00:00.000Z' }),
          ),
      ),
    );
    assert.equal(results.filter((r) => r.created).length, 1);
    assert.equal(new Set(results.map((r) => r.id)).size, 1, 'every caller learns the one job id');
    const { n } = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(n, 1);
  });

  void it('counts queue depths as numbers', async () => {
    await enqueue(db, { queue: 'email-send', payload: {} });
    await enqueue(db, { queue: 'email-send', payload: {} });
    await enqueue(db, { queue: 'retention', payload: {}, runAt: at(60_000) });
    const depths = await queueDepths(db);
    assert.equal(depths['email-send'], 2);
    assert.equal(depths.retention, 1);
    assert.equal(depths['webhook-delivery'], 0);
  });
});
