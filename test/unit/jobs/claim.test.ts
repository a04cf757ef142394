import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { claim, LEASE_EXPIRED_ERROR } from '../../../src/jobs/claim';
import { complete } from '../../../src/jobs/complete';
import { enqueue } from '../../../src/jobs/enqueue';
import { runClaimers } from './claimers';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const at = (ms: number): Date => new Date(Date.now() + ms);

void describe('claim', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.close();
  });

  void it('leases due jobs to the owner, counts the attempt, and returns them oldest first', async () => {
    const a = await enqueue(t.db, { queue: 'email-send', payload: { n: 1 }, runAt: at(-2_000) });
    const b = await enqueue(t.db, { queue: 'email-send', payload: { n: 2 }, runAt: at(-1_000) });
    const now = new Date();
    const { jobs, dead } = await claim(t.db, {
      queues: ['email-send'],
      owner: 'w1',
      leaseMs: 30_000,
      limit: 10,
      now,
    });
    assert.deepEqual(dead, []);
    const lease = new Date(now.getTime() + 30_000).toISOString();
    assert.deepEqual(jobs, [
      {
        id: a.id,
        queue: 'email-send',
        payloadJson: '{"n":1}',
        attempts: 1,
        maxAttempts: 5,
        leaseExpiresAt: lease,
      },
      {
        id: b.id,
        queue: 'email-send',
        payloadJson: '{"n":2}',
        attempts: 1,
        maxAttempts: 5,
        leaseExpiresAt: lease,
      },
    ]);
    const rows = await t.db
      .selectFrom('jobs')
      .select(['state', 'lease_owner', 'lease_expires_at', 'attempts'])
      .execute();
    assert.deepEqual(rows, [
      { state: 'running', lease_owner: 'w1', lease_expires_at: lease, attempts: 1 },
      { state: 'running', lease_owner: 'w1', lease_expires_at: lease, attempts: 1 },
    ]);
    const again = await claim(t.db, { queues: ['email-send'], owner: 'w2', leaseMs: 30_000, limit: 10 });
    assert.deepEqual(again.jobs, [], 'a leased job is not claimable while its lease runs');
  });

  void it('takes at most `limit` jobs and only from the queues asked for', async () => {
    for (let i = 0; i < 5; i++)
      await enqueue(t.db, { queue: 'email-send', payload: { i }, runAt: at(i - 10) });
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const first = await claim(t.db, { queues: ['email-send'], owner: 'w', leaseMs: 1_000, limit: 3 });
    assert.deepEqual(
      first.jobs.map((j) => JSON.parse(j.payloadJson) as unknown),
      [{ i: 0 }, { i: 1 }, { i: 2 }],
    );
    const rest = await claim(t.db, { queues: ['email-send'], owner: 'w', leaseMs: 1_000, limit: 10 });
    assert.equal(rest.jobs.length, 2);
    assert.ok(rest.jobs.every((j) => j.queue === 'email-send'));
    const other = await claim(t.db, {
      queues: ['webhook-delivery', 'dns-recheck'],
      owner: 'w',
      leaseMs: 1_000,
      limit: 10,
    });
    assert.equal(other.jobs.length, 1);
    assert.equal(other.jobs[0]!.queue, 'webhook-delivery');
  });

  void it('reclaims a job whose lease expired (its worker crashed) and counts another attempt', async () => {
    const { id } = await enqueue(t.db, { queue: 'email-send', payload: {} });
    await claim(t.db, { queues: ['email-send'], owner: 'crashed', leaseMs: 1_000, limit: 1 });
    const during = await claim(t.db, {
      queues: ['email-send'],
      owner: 'w2',
      leaseMs: 1_000,
      limit: 1,
      now: at(500),
    });
    assert.deepEqual(during.jobs, []);
    const after = await claim(t.db, {
      queues: ['email-send'],
      owner: 'w2',
      leaseMs: 1_000,
      limit: 1,
      now: at(1_500),
    });
    assert.deepEqual(
      after.jobs.map((j) => [j.id, j.attempts]),
      [[id, 2]],
    );
    const row = await t.db.selectFrom('jobs').select(['lease_owner', 'state']).executeTakeFirstOrThrow();
    assert.deepEqual(row, { lease_owner: 'w2', state: 'running' });
  });

  void it('makes a job terminal when its lease expires on the last attempt, instead of running it again', async () => {
    const { id } = await enqueue(t.db, { queue: 'email-send', payload: {}, maxAttempts: 2 });
    await claim(t.db, { queues: ['email-send'], owner: 'a', leaseMs: 1_000, limit: 1 });
    await claim(t.db, { queues: ['email-send'], owner: 'b', leaseMs: 1_000, limit: 1, now: at(1_500) });
    const third = await claim(t.db, {
      queues: ['email-send'],
      owner: 'c',
      leaseMs: 1_000,
      limit: 1,
      now: at(3_000),
    });
    assert.deepEqual(third.jobs, []);
    assert.deepEqual(third.dead, [{ id, queue: 'email-send', attempts: 2 }]);
    const row = await t.db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'last_error', 'finished_at'])
      .executeTakeFirstOrThrow();
    assert.equal(row.state, 'failed');
    assert.equal(row.attempts, 2);
    assert.equal(row.last_error, LEASE_EXPIRED_ERROR);
    assert.ok(row.finished_at);
    const later = await claim(t.db, {
      queues: ['email-send'],
      owner: 'c',
      leaseMs: 1_000,
      limit: 1,
      now: at(9_000),
    });
    assert.deepEqual(later, { jobs: [], dead: [] });
  });

  void it('runs inside a caller transaction when given one', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: {} });
    await assert.rejects(
      t.db.transaction().execute(async (trx) => {
        const { jobs } = await claim(trx, { queues: ['email-send'], owner: 'w', leaseMs: 1_000, limit: 1 });
        assert.equal(jobs.length, 1);
        throw new Error('abort');
      }),
      /abort/,
    );
    const row = await t.db.selectFrom('jobs').select(['state', 'attempts']).executeTakeFirstOrThrow();
    assert.deepEqual(row, { state: 'queued', attempts: 0 }, 'the claim rolled back with the transaction');
  });

  void it('never hands the same job to two claimers running at once on separate connections', async () => {
    const total = 600;
    await t.db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i++) await enqueue(trx, { queue: 'email-send', payload: { i } });
    });
    const runs = await runClaimers(t.url, ['c1', 'c2', 'c3'], 3);
    const results = runs.map((r) => r.ids);

    const all = results.flat();
    assert.equal(all.length, total, 'every job claimed exactly once');
    assert.equal(new Set(all).size, total, 'no job claimed twice');
    assert.ok(
      results.filter((ids) => ids.length > 0).length >= 2,
      `claimers overlapped (${results.map((r) => r.length).join('/')})`,
    );
    const rows = await t.db.selectFrom('jobs').select(['id', 'lease_owner', 'attempts', 'state']).execute();
    const ownerOf = new Map(runs.flatMap((r) => r.ids.map((id) => [id, r.owner] as const)));
    for (const row of rows) {
      assert.equal(row.state, 'running');
      assert.equal(row.attempts, 1);
      assert.equal(row.lease_owner, ownerOf.get(row.id));
    }
  });

  void it('leaves finished jobs alone', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: {} });
    const { jobs } = await claim(t.db, { queues: ['email-send'], owner: 'w', leaseMs: 1_000, limit: 1 });
    assert.equal(await complete(t.db, jobs[0]!, 'w'), true);
    const later = await claim(t.db, {
      queues: ['email-send'],
      owner: 'w',
      leaseMs: 1_000,
      limit: 1,
      now: at(60_000),
    });
    assert.deepEqual(later, { jobs: [], dead: [] });
  });
});
