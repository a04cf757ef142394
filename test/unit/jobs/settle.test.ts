import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ClaimedJob } from '../../../src/jobs/claim';
import { claim } from '../../../src/jobs/claim';
import { complete } from '../../../src/jobs/complete';
import { enqueue } from '../../../src/jobs/enqueue';
import { extendLease } from '../../../src/jobs/extend-lease';
import { describeError, fail } from '../../../src/jobs/fail';
import { isReleaseJob, PermanentJobError, ReleaseJob } from '../../../src/jobs/job-handler';
import { release } from '../../../src/jobs/release';
import { WriteBatcher } from '../../../src/db/write-batcher';
import { settleFailure } from '../../../src/worker/job-settlement';
import { captureLog } from '../../helpers/capture-log';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const at = (ms: number): Date => new Date(Date.now() + ms);
const POLICY = { baseMs: 1_000, maxMs: 60_000, jitter: 0.25 };

void describe('complete, fail, release and extendLease', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.close();
  });

  async function claimOne(owner: string, now?: Date): Promise<ClaimedJob> {
    const { jobs } = await claim(t.db, {
      queues: ['webhook-delivery'],
      owner,
      leaseMs: 1_000,
      limit: 1,
      now,
    });
    assert.equal(jobs.length, 1, `${owner} claimed a job`);
    return jobs[0]!;
  }

  async function row() {
    return t.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
  }

  void it('complete marks the job succeeded and releases the lease', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const job = await claimOne('w1');
    assert.equal(await complete(t.db, job, 'w1'), true);
    const r = await row();
    assert.equal(r.state, 'succeeded');
    assert.equal(r.lease_expires_at, null);
    assert.equal(r.lease_owner, 'w1');
    assert.ok(r.finished_at);
  });

  void it('a worker whose lease expired and was re-claimed cannot complete, fail or extend it', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const stale = await claimOne('w1');
    const fresh = await claimOne('w2', at(1_500));
    assert.equal(await complete(t.db, stale, 'w1'), false);
    assert.deepEqual(await fail(t.db, stale, 'w1', new Error('x'), { retryable: false }), {
      outcome: 'lost',
    });
    assert.equal(await extendLease(t.db, stale, 'w1', 60_000), false);
    const r = await row();
    assert.deepEqual([r.state, r.lease_owner, r.attempts, r.last_error], ['running', 'w2', 2, null]);
    assert.equal(await complete(t.db, fresh, 'w2'), true);
  });

  void it('an owner that never held the lease cannot settle or extend it', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const job = await claimOne('w1');
    assert.equal(await complete(t.db, job, 'intruder'), false);
    assert.deepEqual(await fail(t.db, job, 'intruder', 'x', { retryable: true }), { outcome: 'lost' });
    assert.equal(await extendLease(t.db, job, 'intruder', 60_000), false);
    const r = await row();
    assert.deepEqual([r.state, r.lease_owner, r.last_error], ['running', 'w1', null]);
  });

  void it('the same owner cannot settle an earlier attempt it lost to its own re-claim', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const first = await claimOne('w1');
    const second = await claimOne('w1', at(1_500));
    assert.equal(await complete(t.db, first, 'w1'), false);
    assert.equal((await row()).state, 'running');
    assert.equal(await complete(t.db, second, 'w1'), true);
  });

  void it('retries with exponential backoff, then fails terminally once max_attempts is spent', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {}, maxAttempts: 3 });
    let now = new Date();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 2; attempt++) {
      const job = await claimOne('w', now);
      assert.equal(job.attempts, attempt);
      const result = await fail(t.db, job, 'w', new Error(`boom ${attempt}`), {
        retryable: true,
        backoff: POLICY,
        now,
        random: () => 0.5,
      });
      assert.equal(result.outcome, 'retry');
      if (result.outcome !== 'retry') return;
      delays.push(result.delayMs);
      const r = await row();
      assert.deepEqual(
        [r.state, r.run_at, r.last_error, r.lease_expires_at],
        ['queued', result.runAt, `boom ${attempt}`, null],
      );
      // Not claimable until the backoff has passed.
      const early = await claim(t.db, {
        queues: ['webhook-delivery'],
        owner: 'w',
        leaseMs: 1_000,
        limit: 1,
        now: new Date(Date.parse(result.runAt) - 1),
      });
      assert.deepEqual(early.jobs, []);
      now = new Date(result.runAt);
    }
    assert.deepEqual(delays, [1_125, 2_250]);
    const last = await claimOne('w', now);
    assert.equal(last.attempts, 3);
    assert.deepEqual(await fail(t.db, last, 'w', new Error('boom 3'), { retryable: true, now }), {
      outcome: 'dead',
    });
    const r = await row();
    assert.deepEqual([r.state, r.attempts, r.last_error], ['failed', 3, 'boom 3']);
    assert.ok(r.finished_at);
    const never = await claim(t.db, {
      queues: ['webhook-delivery'],
      owner: 'w',
      leaseMs: 1_000,
      limit: 1,
      now: at(1e9),
    });
    assert.deepEqual(never, { jobs: [], dead: [] });
  });

  void it('a permanent failure is terminal on the first attempt', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {}, maxAttempts: 5 });
    const job = await claimOne('w');
    assert.deepEqual(await fail(t.db, job, 'w', new Error('410 Gone'), { retryable: false }), {
      outcome: 'dead',
    });
    const r = await row();
    assert.deepEqual([r.state, r.attempts], ['failed', 1]);
  });

  void it('honours an explicit retry delay', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const job = await claimOne('w');
    const now = new Date();
    const result = await fail(t.db, job, 'w', 'rate limited', {
      retryable: true,
      retryDelayMs: 120_000,
      now,
    });
    assert.deepEqual(result, {
      outcome: 'retry',
      delayMs: 120_000,
      runAt: new Date(now.getTime() + 120_000).toISOString(),
    });
  });

  void it('extendLease keeps a long-running job from being re-claimed', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const job = await claimOne('w1');
    assert.equal(await extendLease(t.db, job, 'w1', 10_000), true);
    const r = await row();
    assert.ok(r.lease_expires_at! > at(9_000).toISOString());
    const other = await claim(t.db, {
      queues: ['webhook-delivery'],
      owner: 'w2',
      leaseMs: 1_000,
      limit: 1,
      now: at(5_000),
    });
    assert.deepEqual(other.jobs, []);
  });

  void it('describes errors briefly for last_error and logs', () => {
    assert.equal(describeError(new Error('plain')), 'plain');
    assert.equal(describeError(new TypeError('bad')), 'TypeError: bad');
    assert.equal(describeError('text'), 'text');
    assert.equal(describeError({ code: 42 }), '{"code":42}');
    const long = describeError(new Error('x'.repeat(5_000)));
    assert.equal(long.length, 2_000);
    assert.ok(long.endsWith('…'));
  });

  // release (src/jobs/release.ts): the worker's sender at a held destination (issue 31 item 3).
  void it('puts the job back at runAt with the attempts it had before the claim, many times over', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {}, maxAttempts: 2 });
    let now = new Date();
    // More holds than max_attempts: none of them counts.
    for (let i = 0; i < 4; i++) {
      const job = await claimOne('w1', now);
      assert.equal(job.attempts, 1);
      const runAt = new Date(now.getTime() + 30_000);
      assert.equal(await release(t.db, job, 'w1', runAt, now), true);
      const r = await row();
      assert.equal(r.state, 'queued');
      assert.equal(r.attempts, 0);
      assert.equal(r.lease_expires_at, null);
      assert.equal(r.run_at, runAt.toISOString());
      // Not claimable before runAt.
      const early = await claim(t.db, {
        queues: ['webhook-delivery'],
        owner: 'w2',
        leaseMs: 1_000,
        limit: 1,
        now,
      });
      assert.equal(early.jobs.length, 0);
      now = new Date(runAt.getTime() + 1);
    }
  });

  void it('writes nothing for a lease that is no longer ours', async () => {
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const stale = await claimOne('w1');
    const fresh = await claimOne('w2', new Date(Date.now() + 1_500));
    assert.equal(await release(t.db, stale, 'w1', new Date(Date.now() + 60_000)), false);
    const r = await row();
    assert.equal(r.state, 'running');
    assert.equal(r.lease_owner, 'w2');
    assert.equal(r.attempts, fresh.attempts);
  });

  void it("the runner's settlement releases on ReleaseJob, and fails on anything else", async () => {
    const log = captureLog();
    const deps = {
      writes: new WriteBatcher(t.db),
      owner: 'w1',
      logger: log.logger,
      backoff: undefined,
      closed: () => false,
    };
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const runAt = new Date(Date.now() + 45_000);
    const held = new ReleaseJob(runAt, 'destination held');
    assert.equal(isReleaseJob(held), true);
    assert.equal(isReleaseJob(new PermanentJobError('x')), false);
    await settleFailure(deps, await claimOne('w1'), held);
    let r = await row();
    assert.equal(r.state, 'queued');
    assert.equal(r.attempts, 0);
    assert.equal(r.run_at, runAt.toISOString());
    assert.equal(log.events('job_failed').length, 0, 'a hold is not a failure');
    assert.equal(log.events('job_released').length, 1);

    await settleFailure(deps, await claimOne('w1', new Date(runAt.getTime() + 1)), new Error('boom'));
    r = await row();
    assert.equal(r.attempts, 1, 'a real failure spends its attempt');
    assert.equal(log.events('job_failed').length, 1);
  });
});
