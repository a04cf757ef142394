// Issue 17 finding 2: a handler that blocked the worker's event loop stalled every queue, was
// retried five times, and nothing restarted the worker. Here a real worker process (the real job
// runner and stall watchdog on a real jobs table) runs a job that blocks: the watchdog fails that
// job once, with a reason, logs `worker_stalled` and kills the process; the replacement worker
// (what the supervisor starts) runs the next job.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect';
import { enqueue } from '../../src/jobs/enqueue';
import type { JobEffectsTable } from '../helpers/job-worker-process';
import { CREATE_JOB_EFFECTS, READY_MARKER, TEST_QUEUE } from '../helpers/job-worker-process';
import type { TestDb } from '../helpers/test-db';
import { createTestDb } from '../helpers/test-db';

const WORKER_SCRIPT = path.join(__dirname, '../helpers/job-worker-process.js');
const STALL_LIMIT_MS = 1_000;

interface Worker {
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
  readonly ready: Promise<void>;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const timeout = sleep(ms, undefined, { ref: false }).then(() => {
    throw new Error(`${what} took over ${ms} ms`);
  });
  return Promise.race([promise, timeout]);
}

void describe('worker stall watchdog (issue 17 finding 2)', () => {
  let t: TestDb;
  let url: string;
  let db: Db;

  before(async () => {
    t = await createTestDb();
    ({ db, url } = t);
    await sql.raw(CREATE_JOB_EFFECTS).execute(db);
  });
  after(async () => t.close());

  function startWorker(): Worker {
    const child = spawn(process.execPath, [WORKER_SCRIPT], {
      env: {
        ...process.env,
        JOB_DB_URL: url,
        // Long leases: the blocked job must end by the watchdog, not by lease expiry.
        JOB_LEASE_MS: '60000',
        JOB_CONCURRENCY: '4',
        JOB_STALL_LIMIT_MS: String(STALL_LIMIT_MS),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr?.resume();
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (line === READY_MARKER) markReady();
        else if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, lines, ready, exit };
  }

  async function job(id: string) {
    return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  void it(
    'fails the blocking job without retries, kills the worker, and a replacement runs the next job',
    { timeout: 90_000 },
    async () => {
      const blocking = await enqueue(db, {
        queue: TEST_QUEUE,
        payload: { blockMs: 120_000 },
        maxAttempts: 5,
      });
      const first = startWorker();
      try {
        const ended = await within(first.exit, 45_000, 'the watchdog killing the blocked worker');
        assert.equal(ended.signal, 'SIGKILL');
      } finally {
        first.child.kill('SIGKILL');
      }
      const stalled = first.lines.find((l) => l.event === 'worker_stalled');
      assert.ok(stalled, `no worker_stalled line in ${JSON.stringify(first.lines)}`);
      assert.equal(stalled.jobId, blocking.id);
      assert.ok(Number(stalled.stalledMs) >= STALL_LIMIT_MS);

      const failed = await job(blocking.id);
      assert.equal(failed.state, 'failed');
      assert.equal(failed.attempts, 1, 'a stall is not retried');
      assert.match(failed.last_error ?? '', /^WorkerStalled: .*blocked the worker's event loop/);

      const next = await enqueue(db, { queue: TEST_QUEUE, payload: { n: 2 } });
      const second = startWorker();
      try {
        await within(second.ready, 30_000, 'the replacement worker starting');
        for (const deadline = Date.now() + 30_000; (await job(next.id)).state !== 'succeeded';) {
          assert.ok(Date.now() < deadline, 'the next job did not succeed on the replacement worker');
          await sleep(50);
        }
        const effects = await db
          .$extendTables<{ job_effects: JobEffectsTable }>()
          .selectFrom('job_effects')
          .select('job_id')
          .execute();
        assert.deepEqual(
          effects.map((e) => e.job_id),
          [next.id],
          'the blocked job never got past its block',
        );
        assert.equal(
          (await job(blocking.id)).state,
          'failed',
          'the replacement did not pick the failed job up',
        );
      } finally {
        second.child.kill('SIGTERM');
        await within(second.exit, 10_000, 'the replacement worker stopping').catch(() =>
          second.child.kill('SIGKILL'),
        );
      }
    },
  );
});
