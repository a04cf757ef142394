import { workerData } from 'node:worker_threads';
import { openDb } from '../db/connect';
import { WriteBatcher } from '../db/write-batcher';
import type { ApiSend } from '../modules/sending/api-send';
import { commitApiSend, errorToWire } from '../modules/sending/api-send';
import { serveThreadCalls } from '../shared/thread-call';
import type { SendWriterData } from './send-writer';

/**
 * The api's writer thread (src/http/send-writer.ts): its own write connection and
 * group commit, running the commit step of every API send. Each reply is posted as
 * soon as its unit's commit returned, before the next batch begins.
 */
const data = workerData as SendWriterData;
const db = openDb({ file: data.file });
// A send's unit writes only inside the transaction, so it may run twice (savepointsOnFailure).
const deps = { writes: new WriteBatcher(db, { savepointsOnFailure: true }), config: data.config };

serveThreadCalls((send: ApiSend) => commitApiSend(deps, send), {
  toReply: errorToWire,
  onClose: () => db.destroy(),
});
