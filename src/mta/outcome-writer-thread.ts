/**
 * The body of the MTA's outcome writer thread (src/mta/outcome-writer.ts): the
 * outcome jobs' SQLite commits happen here, off Haraka's event loop. better-sqlite3
 * is synchronous, so a commit (an fsync) or a wait for the write lock held by the
 * api or the worker would otherwise stall every SMTP session and delivery Haraka
 * is running meanwhile. Reports are applied here when they can be (status, timeline,
 * webhook outbox: applyOrEnqueueOutcomes), in the commit that records them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AppConfig } from '../config';
import { loadConfig, sqlitePath } from '../config';
import { openDb } from '../db/connect';
import { createLogger } from '../shared/logger';
import type { OutcomeRequest, OutcomeReply } from './outcome-writer';
import { outcomeRecorder } from './outcome-jobs';

const port = parentPort;
if (port === null) throw new Error('outcome-writer-thread runs as a worker thread only');
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
