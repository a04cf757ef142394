/**
 * The body of the MTA's writer thread (src/mta/outcome-writer.ts): the outcome jobs'
 * and the MX intake's SQLite commits happen here, off Haraka's event loop.
 * better-sqlite3 is synchronous, so a commit (an fsync) or a wait for the write lock
 * held by the api or the worker would otherwise stall every SMTP session and
 * delivery Haraka is running meanwhile. Both kinds of request share one group commit
 * (WriteBatcher): what arrives while a commit is in flight goes into the next one,
 * each request under its own savepoint. Reports are applied here when they can be
 * (status, timeline, webhook outbox: applyOrEnqueueOutcomes), in the commit that
 * records them.
 */
import { workerData } from 'node:worker_threads';
import type { AppConfig } from '../config';
import { loadConfig, sqlitePath } from '../config';
import { openDb } from '../db/connect';
import { WriteBatcher } from '../db/write-batcher';
import { createLogger } from '../shared/logger';
import { serveThreadCalls } from '../shared/thread-call';
import { enqueueIntakeJobs } from './inbound-intake';
import type { WriterCall } from './outcome-writer';
import { outcomeRecorder } from './outcome-jobs';

/** The environment's configuration (Haraka's own, inherited); undefined when it is not valid. */
function environmentConfig(): AppConfig | undefined {
  try {
    return loadConfig().config;
  } catch {
    return undefined;
  }
}
const env = environmentConfig();
// The file the parent names, else the one the environment names (loaded again only to throw its error).
const named = (workerData as { file?: unknown } | null)?.file;
const file = typeof named === 'string' ? named : sqlitePath(env ?? loadConfig().config);
// Reports applied here are logged like the worker's (`email_delivered` …), as the mta.
const logger = createLogger({ level: env?.logLevel ?? 'info', process: 'mta' }).child({ module: 'emails' });
const db = openDb({ file });
const writes = new WriteBatcher(db);
const record = outcomeRecorder(db, { apply: { logger }, writes });

function handle(request: WriterCall): Promise<number> {
  if (request.kind === 'intake') return writes.run((trx) => enqueueIntakeJobs(trx, request.jobs));
  return record(request.payloads);
}

serveThreadCalls<WriterCall, number, string>(handle, {
  toReply: (err) => (err instanceof Error ? err.message : String(err)),
  // Closing the last connection checkpoints the WAL and removes -wal/-shm.
  onClose: () => db.destroy(),
});
