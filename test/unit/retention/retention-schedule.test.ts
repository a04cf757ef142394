import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import {
  createRetentionHandler,
  RETENTION_INTERVAL_MS,
  RETENTION_QUEUE,
  scheduleRetention,
  seedRetentionSchedule,
} from '../../../src/modules/retention/retention.jobs';
import { createHandlers, seedSchedules } from '../../../src/worker/handlers';
import { loadConfig } from '../../../src/config';
import { captureLog } from '../../helpers/capture-log';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

describe('retention schedule (real database)', () => {
  let t: TestDb;
  let db: Db;

  const retentionJobs = async () =>
    db
      .selectFrom('jobs')
      .select(['dedupe_key', 'run_at', 'state'])
      .where('queue', '=', RETENTION_QUEUE)
      .orderBy('run_at')
      .execute();

  before(async () => {
    t = await createTestDb();
    db = t.db;
  });
  after(() => t.close());
  beforeEach(async () => {
    await db.deleteFrom('jobs').execute();
  });

  it('is seeded once per hourly slot, however often the worker starts', async () => {
    const first = await seedRetentionSchedule(db);
    const second = await seedRetentionSchedule(db);
    assert.equal(first.created, true);
    assert.equal(second.created, false);
    assert.equal(second.id, first.id);
    const jobs = await retentionJobs();
    assert.equal(jobs.length, 1);
    const slot = new Date(
      Math.floor(Date.now() / RETENTION_INTERVAL_MS) * RETENTION_INTERVAL_MS,
    ).toISOString();
    assert.deepEqual(jobs[0], { dedupe_key: `run:${slot}`, run_at: slot, state: 'queued' });
  });

  it("the worker's seedSchedules enqueues it and the worker has a handler for its queue", async () => {
    const { config } = loadConfig({ DATA_DIR: t.dataDir, DATABASE_URL: t.url, SECRET_KEY: 'x'.repeat(40) });
    await seedSchedules({ db, config });
    await seedSchedules({ db, config });
    assert.equal((await retentionJobs()).length, 1);
    assert.equal(typeof createHandlers({ db, config })[RETENTION_QUEUE], 'function');
  });

  it('a run chains the next slot first, then logs retention_swept with its counts', async () => {
    const { logger, lines } = captureLog({ level: 'info' });
    const handler = createRetentionHandler({
      db,
      config: {
        dataDir: t.dataDir,
        retentionSucceededJobsDays: 7,
        retentionFailedJobsDays: 30,
        retentionWebhookEventsDays: 7,
        captureRetentionDays: 7,
      },
    });
    const started = Date.now();
    await handler(
      { id: 'job_x', queue: RETENTION_QUEUE, payload: { slot: 'x' }, attempts: 1, maxAttempts: 3 },
      { signal: new AbortController().signal, logger },
    );
    const jobs = await retentionJobs();
    assert.equal(jobs.length, 1, 'the run enqueued its successor');
    const runAt = Date.parse(jobs[0]?.run_at ?? '');
    assert.ok(runAt > started && runAt % RETENTION_INTERVAL_MS === 0, 'due at the next hourly slot');
    assert.equal((await scheduleRetention(db, { now: new Date(runAt) })).created, false);
    const swept = lines.find((l) => l.event === 'retention_swept');
    assert.ok(swept, 'one retention_swept line');
    assert.equal(swept.module, 'retention');
    for (const field of [
      'succeededJobs',
      'failedJobs',
      'webhookEvents',
      'idempotencyKeys',
      'quotaBuckets',
      'quotaLedger',
      'orphanRawFiles',
      'emptyInboundDirs',
      'durationMs',
    ]) {
      assert.equal(typeof swept[field], 'number', field);
    }
  });
});
