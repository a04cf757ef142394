// Giving a claimed job back without spending an attempt (src/jobs/release.ts): the worker's sender
// at a held destination (issue 31 item 3). Through the settlement the job runner uses, on the real
// database of the run (SQLite, or PostgreSQL under test:pg).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { WriteBatcher } from '../../../src/db/write-batcher';
import type { ClaimedJob } from '../../../src/jobs/claim';
import { claim } from '../../../src/jobs/claim';
import { enqueue } from '../../../src/jobs/enqueue';
import { isReleaseJob, PermanentJobError, ReleaseJob } from '../../../src/jobs/job-handler';
import { release } from '../../../src/jobs/release';
import { settleFailure } from '../../../src/worker/job-settlement';
import { captureLog } from '../../helpers/capture-log';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

void describe('release: a claimed job back to queued, no attempt spent', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.close();
  });

  async function claimOne(owner: string, now?: Date): Promise<ClaimedJob> {
    const { jobs } = await claim(t.db, { queues: ['email-send'], owner, leaseMs: 1_000, limit: 1, now });
    assert.equal(jobs.length, 1, `${owner} claimed a job`);
    return jobs[0]!;
  }
  const row = () => t.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();

  void it('puts the job back at runAt with the attempts it had before the claim, many times over', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: {}, maxAttempts: 2 });
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
      const early = await claim(t.db, { queues: ['email-send'], owner: 'w2', leaseMs: 1_000, limit: 1, now });
      assert.equal(early.jobs.length, 0);
      now = new Date(runAt.getTime() + 1);
    }
  });

  void it('writes nothing for a lease that is no longer ours', async () => {
    await enqueue(t.db, { queue: 'email-send', payload: {} });
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
    await enqueue(t.db, { queue: 'email-send', payload: {} });
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
