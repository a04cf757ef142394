import path from 'node:path';
import type { ApiSend, Committed, SendCommitter, WireError } from '../modules/sending/api-send';
import { errorFromWire } from '../modules/sending/api-send';
import type { CommitDeps } from '../modules/sending/commit-message';
import { emailQueueFailed } from '../modules/emails/emails.errors';
import { AppError } from '../shared/app-error';
import { ThreadClient } from '../shared/thread-call';

export interface SendWriterData {
  /** The SQLite file (the main thread has applied the migrations). */
  readonly file: string;
  readonly config: CommitDeps['config'];
}

export interface SendWriterOptions {
  /** A thread with nothing to do for this long ends (its memory goes back); the next send starts one. */
  readonly idleMs?: number;
  /** Called when a thread dies unasked: the sends waiting on it have failed with EMAIL_QUEUE_FAILED. */
  readonly onFatal: (err: unknown) => void;
}

/**
 * Runs the commit step of API sends (commit-message.ts: domain, screening,
 * suppressions, size, quota and the writes, group-committed) in a worker thread
 * of the api process with its own write connection (issue 11). better-sqlite3 is
 * synchronous: on the main thread each group commit's fsync and every statement
 * of the send transaction held up HTTP parsing, authentication and validation of
 * the requests behind it; here they overlap, on the machine's second core. A send
 * resolves only after its commit returned in the writer thread, so a 202 still
 * means on disk. Refusals come back as the same AppErrors (errorToWire).
 *
 * The thread starts with the first send and ends after `idleMs` without one, so
 * an idle api does not keep its heap (≈ 25 MiB resident). The request/reply
 * protocol is src/shared/thread-call.ts.
 */
export class SendWriter implements SendCommitter {
  private readonly client: ThreadClient<ApiSend, Committed, WireError>;

  constructor(data: SendWriterData, options: SendWriterOptions) {
    this.client = new ThreadClient({
      script: path.join(__dirname, 'send-writer-thread.js'),
      workerData: data,
      // Its heap lives only while sends come in: room for the young generation costs nothing idle.
      resourceLimits: { maxYoungGenerationSizeMb: 48 },
      idleMs: options.idleMs ?? 30_000,
      fromReply: errorFromWire,
      threadFailed: (cause) =>
        new AppError({ code: 'EMAIL_QUEUE_FAILED', status: 503, message: emailQueueFailed().message, cause }),
      stopped: emailQueueFailed,
      onThreadDied: options.onFatal,
    });
  }

  /** Whether a thread is up (it is not while idle). */
  get running(): boolean {
    return this.client.running;
  }

  commit(send: ApiSend): Promise<Committed> {
    return this.client.call(send);
  }

  /** Once every send was answered (the HTTP server has closed): ends the thread and waits for it. */
  close(): Promise<void> {
    return this.client.close();
  }
}
