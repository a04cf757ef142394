// Runs in a worker thread: a second claimer with its own connection, as another
// worker process would be. (In one thread, a second better-sqlite3 connection
// waiting on BEGIN IMMEDIATE would block the very event loop holding the lock.)
// Either backend: on PostgreSQL it is a pool of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { claim } from '../../../src/jobs/claim';
import { openTestDatabase } from '../../helpers/open-database';

export interface ClaimerInput {
  /** DATABASE_URL of the test database. */
  readonly url: string;
  readonly owner: string;
  readonly batch: number;
}

async function run(input: ClaimerInput, start: Promise<void>): Promise<string[]> {
  const db = openTestDatabase(input.url);
  const ids: string[] = [];
  await start;
  try {
    for (;;) {
      const { jobs } = await claim(db, {
        queues: ['email-send'],
        owner: input.owner,
        leaseMs: 60_000,
        limit: input.batch,
      });
      if (jobs.length === 0) return ids;
      for (const job of jobs) ids.push(job.id);
      // A breath between claims, as a worker between its batches: on a loaded machine one
      // thread could otherwise drain the whole queue before the others were scheduled,
      // and the test would check nothing concurrent (claims still collide: ~3 per ms).
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    await db.destroy();
  }
}

if (parentPort) {
  const port = parentPort;
  const start = new Promise<void>((resolve) => port.once('message', () => resolve()));
  port.postMessage('ready');
  run(workerData as ClaimerInput, start).then(
    (ids) => port.postMessage({ ids }),
    (err: unknown) => port.postMessage({ error: String(err) }),
  );
}
