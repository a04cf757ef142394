/**
 * The body of the MTA's outcome writer thread (src/mta/outcome-writer.ts): the
 * outcome jobs' SQLite commits happen here, off Haraka's event loop. better-sqlite3
 * is synchronous, so a commit (an fsync) or a wait for the write lock held by the
 * api or the worker would otherwise stall every SMTP session and delivery Haraka
 * is running meanwhile. Reports are applied here when they can be (status, timeline,
 * webhook outbox: applyOrEnqueueOutcomes), in the commit that records them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig, sqlitePath } from '../config';
import { openDb } from '../db/connect';
import { createLogger } from '../shared/logger';
import type { OutcomeRequest, OutcomeReply } from './outcome-writer';
import { outcomeRecorder } from './outcome-jobs';

const port = parentPort;
if (port === null) throw new Error('outcome-writer-thread runs as a worker thread only');
// The file the parent names, else the one the environment names (Haraka's own, inherited).
const named = (workerData as { file?: unknown } | null)?.file;
const file = typeof named === 'string' ? named : sqlitePath(loadConfig().config);
/** LOG_LEVEL when the environment gives a valid configuration (the mta's does), else info. */
function logLevel(): string {
  try {
    return loadConfig().config.logLevel;
  } catch {
    return 'info';
  }
}
// Reports applied here are logged like the worker's (`email_delivered` …), as the mta.
const logger = createLogger({ level: logLevel(), process: 'mta' }).child({ module: 'emails' });
const record = outcomeRecorder(openDb({ file }), { apply: { logger } });

port.on('message', (request: OutcomeRequest) => {
  record(request.payloads).then(
    (created) => port.postMessage({ id: request.id, created } satisfies OutcomeReply),
    (err: unknown) =>
      port.postMessage({
        id: request.id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies OutcomeReply),
  );
});
