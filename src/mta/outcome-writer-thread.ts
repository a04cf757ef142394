/**
 * The body of the MTA's outcome writer thread (src/mta/outcome-writer.ts): the
 * outcome jobs' SQLite commits happen here, off Haraka's event loop. better-sqlite3
 * is synchronous, so a commit (an fsync) or a wait for the write lock held by the
 * api or the worker would otherwise stall every SMTP session and delivery Haraka
 * is running meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig, sqlitePath } from '../config';
import { openDb } from '../db/connect';
import type { OutcomeRequest, OutcomeReply } from './outcome-writer';
import { outcomeRecorder } from './outcome-jobs';

const port = parentPort;
if (port === null) throw new Error('outcome-writer-thread runs as a worker thread only');
// The file the parent names, else the one the environment names (Haraka's own, inherited).
const named = (workerData as { file?: unknown } | null)?.file;
const file = typeof named === 'string' ? named : sqlitePath(loadConfig().config);
const record = outcomeRecorder(openDb({ file }));

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
