import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { claim } from '../../../src/jobs/claim';
import { complete } from '../../../src/jobs/complete';
import { enqueue } from '../../../src/jobs/enqueue';
import { oldestQueuedAgeMs, queueDepths, queueWaits, STARVED_AFTER_MS } from '../../../src/jobs/queue-stats';
import { QUEUES } from '../../../src/jobs/queues';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

void describe('queue statistics', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.close();
  });

  void it('reports every known queue, at 0 when empty', async () => {
    const depths = await queueDepths(t.db);
    assert.deepEqual(Object.keys(depths).sort(), [...QUEUES].sort());
    assert.ok(Object.values(depths).every((n) => n === 0));
    for (const q of ['email-send', 'email-send:failed', 'bounce-processing', 'webhook-delivery'] as const) {
      assert.equal(depths[q], 0);
    }
  });

  void it('counts queued and running jobs, not finished ones', async () => {
    for (let i = 0; i < 3; i++) await enqueue(t.db, { queue: 'email-send', payload: {} });
    await enqueue(t.db, { queue: 'email-send', payload: {}, runAt: new Date(Date.now() + 60_000) });
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {} });
    const { jobs } = await claim(t.db, { queues: ['email-send'], owner: 'w', leaseMs: 1_000, limit: 2 });
    await complete(t.db, jobs[0]!, 'w');
    const depths = await queueDepths(t.db);
    assert.equal(depths['email-send'], 3);
    assert.equal(depths['webhook-delivery'], 1);
    assert.equal(depths['dns-recheck'], 0);
  });

  void it('measures how long the oldest due job has waited, ignoring jobs scheduled for later', async () => {
    const now = new Date();
    assert.equal(await oldestQueuedAgeMs(t.db, 'email-send', now), 0);
    await enqueue(t.db, { queue: 'email-send', payload: {}, runAt: new Date(now.getTime() - 5_000) });
    await enqueue(t.db, { queue: 'email-send', payload: {}, runAt: new Date(now.getTime() - 2_000) });
    await enqueue(t.db, { queue: 'email-send', payload: {}, runAt: new Date(now.getTime() + 60_000) });
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {}, runAt: new Date(now.getTime() - 9_000) });
    assert.equal(await oldestQueuedAgeMs(t.db, 'email-send', now), 5_000);
    const { jobs } = await claim(t.db, { queues: ['email-send'], owner: 'w', leaseMs: 1_000, limit: 1, now });
    assert.equal(jobs.length, 1);
    assert.equal(await oldestQueuedAgeMs(t.db, 'email-send', now), 2_000);
  });

  void it('calls a queue starved when its due job waited past the threshold with none of it running', async () => {
    const now = new Date();
    const late = new Date(now.getTime() - STARVED_AFTER_MS - 10_000);
    await enqueue(t.db, { queue: 'email-send', payload: {}, runAt: late });
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {}, runAt: late });
    await enqueue(t.db, { queue: 'webhook-delivery', payload: {}, runAt: late });
    await enqueue(t.db, { queue: 'retention', payload: {}, runAt: new Date(now.getTime() - 5_000) });
    // webhook-delivery is busy, not starved: one of its jobs runs while the other waits.
    const claimed = await claim(t.db, {
      queues: ['webhook-delivery'],
      owner: 'w',
      leaseMs: 60_000,
      limit: 1,
      now,
    });
    assert.equal(claimed.jobs.length, 1);
    const waits = await queueWaits(t.db, now);
    assert.deepEqual(waits['email-send'], {
      oldestRunnableSeconds: Math.floor((STARVED_AFTER_MS + 10_000) / 1000),
      running: 0,
      starved: true,
    });
    assert.equal(waits['webhook-delivery'].running, 1);
    assert.equal(waits['webhook-delivery'].starved, false);
    assert.deepEqual(waits.retention, { oldestRunnableSeconds: 5, running: 0, starved: false });
    assert.deepEqual(waits['bounce-processing'], { oldestRunnableSeconds: 0, running: 0, starved: false });
  });
});
