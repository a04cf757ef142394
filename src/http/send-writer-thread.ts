import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../db/connect';
import { WriteBatcher } from '../db/write-batcher';
import { apiSendToCommit, errorToWire } from '../modules/emails/api-send';
import { commitMessage } from '../modules/emails/commit-message';
import type { SendWriterData, WriterReply, WriterRequest } from './send-writer';

/**
 * The api's writer thread (src/http/send-writer.ts): its own write connection and
 * group commit, running the commit step of every API send. Each reply is posted as
 * soon as its unit's commit returned, before the next batch begins.
 */
if (!parentPort) throw new Error('send-writer-thread runs as a worker thread');
const port = parentPort;
const data = workerData as SendWriterData;
const db = openDb({ file: data.file });
const deps = { writes: new WriteBatcher(db), config: data.config };

let inFlight = 0;
let closing = false;
let closed = false;

function closeWhenDone(): void {
  if (!closing || closed || inFlight > 0) return;
  closed = true;
  // Closing the port lets the thread end; the main thread sees its 'exit'.
  void db.destroy().finally(() => port.close());
}

port.on('message', (msg: WriterRequest) => {
  if (msg.type === 'close') {
    closing = true;
    closeWhenDone();
    return;
  }
  const { seq } = msg;
  inFlight++;
  commitMessage(deps, apiSendToCommit(msg.send))
    .then(
      (committed) => port.postMessage({ seq, committed } satisfies WriterReply),
      (err: unknown) => port.postMessage({ seq, error: errorToWire(err) } satisfies WriterReply),
    )
    .finally(() => {
      inFlight--;
      closeWhenDone();
    });
});
