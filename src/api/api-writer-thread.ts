import type { WriterContext } from '../db/writer-thread';
import { serveWriterUnits } from '../db/writer-thread';
import type { ApiSend, Committed } from '../modules/sending/api-send';
import { commitApiBatch, commitApiSend } from '../modules/sending/api-send';

/**
 * The api's writer thread (src/db/writer-thread.ts), started by api-writer.ts:
 * the commit step of every API send (commit-message.ts: domain, suppressions,
 * size, quota and the writes) off the HTTP event loop.
 */
// A type, not an interface: a type literal is assignable to UnitMap's index signature.
export type ApiWriterUnits = {
  readonly 'email.commit': { readonly request: ApiSend; readonly result: Committed };
  readonly 'email.commit-batch': { readonly request: readonly ApiSend[]; readonly result: Committed[] };
};

serveWriterUnits<ApiWriterUnits>(
  {
    'email.commit': (ctx: WriterContext, send: ApiSend) => commitApiSend(ctx, send),
    'email.commit-batch': (ctx: WriterContext, sends: readonly ApiSend[]) => commitApiBatch(ctx, sends),
  },
  // A send's unit writes only inside the transaction, so it may run twice.
  { savepointsOnFailure: true },
);
