// A real worker process for the crash tests: the real job runner on the real
// jobs table, with one test handler. Configured through the environment:
//   JOB_DB_URL (a DATABASE_URL, either backend; migrated already; must hold a job_effects table),
//   JOB_LEASE_MS, JOB_CONCURRENCY, LOG_LEVEL, and JOB_STALL_LIMIT_MS (starts the stall watchdog).
// Tests SIGKILL it at random instants once it printed READY_MARKER; SIGTERM stops it cleanly.
// Test seam, never a production path: a job whose payload has `blockMs` blocks the event loop for
// that long inside JobContext.cpu, as a regex backtracking over a hostile report would.
import { setTimeout as sleep } from 'node:timers/promises';
import type { QueueName } from '../../src/jobs/queues';
import { createLogger } from '../../src/shared/logger';
import type { JobContext } from '../../src/jobs/job-handler';
import { cpuWork } from '../../src/jobs/job-handler';
import { JobRunner } from '../../src/worker/job-runner';
import { openTestDatabase } from './open-database';

/** Outside QUEUES on purpose: no production handler could ever claim these jobs. */
export const TEST_QUEUE = 'test-effect' as QueueName;

/** One row per job whose effect happened; `runs` counts how often the handler got that far. */
export interface JobEffectsTable {
  job_id: string;
  runs: number;
}

/** Written to stdout once the runner is claiming. */
export const READY_MARKER = 'JOB_WORKER_READY';

export const CREATE_JOB_EFFECTS = 'create table job_effects (job_id text primary key, runs integer not null)';

/** Busy-waits: the event loop does nothing else meanwhile. */
function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

function main(): void {
  const url = process.env.JOB_DB_URL;
  if (!url) throw new Error('JOB_DB_URL is required');
  const db = openTestDatabase(url);
  const effects = db.$extendTables<{ job_effects: JobEffectsTable }>();
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', process: 'test-worker' });
  const stallLimitMs = process.env.JOB_STALL_LIMIT_MS;
  const runner = new JobRunner({
    db,
    logger,
    stallWatchdog:
      stallLimitMs === undefined
        ? undefined
        : { limitMs: Number(stallLimitMs), url, logLevel: process.env.LOG_LEVEL ?? 'warn' },
    leaseMs: Number(process.env.JOB_LEASE_MS ?? 1_000),
    concurrency: Number(process.env.JOB_CONCURRENCY ?? 4),
    idleMs: 50,
    handlers: {
      [TEST_QUEUE]: async (job: { id: string; payload: unknown }, ctx: JobContext) => {
        // A few ms of "work" so kills land mid-handler, then an idempotent effect.
        await sleep(5 + Math.floor(Math.random() * 10));
        const blockMs = (job.payload as { blockMs?: unknown } | null)?.blockMs;
        if (typeof blockMs === 'number') cpuWork(ctx, () => blockFor(blockMs));
        await effects
          .insertInto('job_effects')
          .values({ job_id: job.id, runs: 1 })
          .onConflict((oc) =>
            oc.column('job_id').doUpdateSet((eb) => ({ runs: eb('job_effects.runs', '+', 1) })),
          )
          .execute();
      },
    },
  });
  runner.start();
  process.stdout.write(`${READY_MARKER}\n`);
  process.once('SIGTERM', () => {
    void runner
      .stop(2_000)
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });
}

if (require.main === module) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`job-worker-process: ${String(err)}\n`);
    process.exit(1);
  }
}
