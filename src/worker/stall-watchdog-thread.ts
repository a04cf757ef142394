// The watchdog thread (see stall-watchdog.ts). It runs on its own event loop, so it keeps working
// while the main thread is stuck in a handler; everything it does before the kill is synchronous
// logging and one write through its own database connection. The logger and the database are
// loaded only then: an idle watchdog is a bare thread, not a second copy of kysely and pino.
import { performance } from 'node:perf_hooks';
import { workerData } from 'node:worker_threads';
import type * as DbConnect from '../db/connect';
import type * as JobsFail from '../jobs/fail';
import type * as Logger from '../shared/logger';
import type { StallWatchdogData } from './stall-watchdog';
import { readBlamedJob, SLOT } from './stall-watchdog';

const data = workerData as StallWatchdogData;
const slots = new Int32Array(data.shared, 0, 4);

/** The error recorded on the blamed job; its name makes `last_error` say what happened. */
class WorkerStalledError extends Error {
  constructor(stalledMs: number) {
    super(
      `the handler blocked the worker's event loop for ${Math.round(stalledMs)} ms (limit ${data.limitMs} ms); ` +
        'the worker was killed and restarted, the job is not retried',
    );
    this.name = 'WorkerStalled';
  }
}

async function onStall(stalledMs: number): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on a stall only (see above) */
  const { openDatabase } = require('../db/connect') as typeof DbConnect;
  const { fail } = require('../jobs/fail') as typeof JobsFail;
  const { createLogger } = require('../shared/logger') as typeof Logger;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const log = createLogger({ level: data.logLevel, process: 'worker', node: data.node }).child({
    module: 'stall-watchdog',
  });
  const job = readBlamedJob(data.shared);
  const fields = { event: 'worker_stalled', jobId: job?.id ?? null, stalledMs: Math.round(stalledMs) };
  log.error(
    { ...fields, limitMs: data.limitMs, owner: data.owner },
    'event loop blocked; killing the worker',
  );
  if (job !== null) {
    const db = openDatabase(data.url, { poolSize: 1, applicationName: 'mailroom-stall-watchdog' });
    try {
      // Under the lease this worker holds: a job another worker took over meanwhile is not touched.
      const result = await fail(
        db,
        { id: job.id, attempts: job.attempts, maxAttempts: job.attempts },
        data.owner,
        new WorkerStalledError(stalledMs),
        { retryable: false },
      );
      log.error({
        event: 'job_dead',
        id: job.id,
        attempts: job.attempts,
        reason: 'stalled',
        outcome: result.outcome,
      });
    } catch (err) {
      // The job then returns through lease expiry, like any job of a worker that died.
      log.error({ event: 'worker_stalled_settle_failed', jobId: job.id, err });
    } finally {
      await db.destroy().catch(() => undefined);
    }
  }
  process.kill(process.pid, 'SIGKILL');
}

let lastBeat = Atomics.load(slots, SLOT.beat);
let lastChange = performance.now();
const timer = setInterval(
  () => {
    const beat = Atomics.load(slots, SLOT.beat);
    const now = performance.now();
    if (beat !== lastBeat) {
      lastBeat = beat;
      lastChange = now;
      return;
    }
    if (now - lastChange < data.limitMs) return;
    clearInterval(timer);
    void onStall(now - lastChange).catch(() => process.kill(process.pid, 'SIGKILL'));
  },
  Math.max(20, Math.min(250, Math.floor(data.limitMs / 10))),
);

// The thread allocates next to nothing after its start; what its start-up allocated is given
// back once (the worker runs with --expose-gc, src/supervisor.ts; issue 18 item 9).
setTimeout(() => globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' }), 1_000);
