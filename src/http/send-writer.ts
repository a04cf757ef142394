import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ApiSend, Committed, SendCommitter, WireError } from '../modules/emails/api-send';
import { errorFromWire } from '../modules/emails/api-send';
import type { CommitDeps } from '../modules/emails/commit-message';
import { emailQueueFailed } from '../modules/emails/emails.errors';
import { AppError } from '../shared/app-error';

export interface SendWriterData {
  /** The SQLite file (the main thread has applied the migrations). */
  readonly file: string;
  readonly config: CommitDeps['config'];
}

export type WriterRequest =
  { readonly type: 'commit'; readonly seq: number; readonly send: ApiSend } | { readonly type: 'close' };

export type WriterReply =
  | { readonly seq: number; readonly committed: Committed; readonly error?: undefined }
  | { readonly seq: number; readonly committed?: undefined; readonly error: WireError };

interface Waiting {
  resolve(value: Committed): void;
  reject(err: unknown): void;
}

/** One run of the thread, from its first send to its close. */
interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, Waiting>;
  readonly exited: Promise<void>;
  closing: boolean;
  lastUsed: number;
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
 * means on disk. Refusals come back as the same AppErrors.
 *
 * The thread starts with the first send and ends after `idleMs` without one, so
 * an idle api does not keep its heap (≈ 25 MiB resident).
 */
export class SendWriter implements SendCommitter {
  private thread: Thread | undefined;
  private seq = 0;
  private stopped = false;
  private readonly idleMs: number;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly data: SendWriterData,
    private readonly options: SendWriterOptions,
  ) {
    this.idleMs = options.idleMs ?? 30_000;
    this.sweep = setInterval(() => this.closeIfIdle(), Math.max(100, this.idleMs / 2)).unref();
  }

  /** Whether a thread is up (it is not while idle). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  commit(send: ApiSend): Promise<Committed> {
    if (this.stopped) return Promise.reject(emailQueueFailed());
    const thread = this.current();
    const seq = ++this.seq;
    thread.lastUsed = Date.now();
    return new Promise<Committed>((resolve, reject) => {
      thread.waiting.set(seq, { resolve, reject });
      thread.worker.postMessage({ type: 'commit', seq, send } satisfies WriterRequest);
    });
  }

  /** Once every send was answered (the HTTP server has closed): ends the thread and waits for it. */
  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    const thread = this.thread;
    if (thread) await this.end(thread);
  }

  private current(): Thread {
    if (this.thread && !this.thread.closing) return this.thread;
    const worker = new Worker(path.join(__dirname, 'send-writer-thread.js'), {
      workerData: this.data,
      // Its heap lives only while sends come in: room for the young generation costs nothing idle.
      resourceLimits: { maxYoungGenerationSizeMb: 48 },
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const thread: Thread = { worker, waiting: new Map(), exited, closing: false, lastUsed: Date.now() };
    worker.on('message', (reply: WriterReply) => {
      const w = thread.waiting.get(reply.seq);
      if (!w) return;
      thread.waiting.delete(reply.seq);
      thread.lastUsed = Date.now();
      if (reply.error === undefined) w.resolve(reply.committed);
      else w.reject(errorFromWire(reply.error));
    });
    let dead = false;
    const fail = (err: unknown): void => {
      const failed = new AppError({
        code: 'EMAIL_QUEUE_FAILED',
        status: 503,
        message: emailQueueFailed().message,
        cause: err,
      });
      for (const w of thread.waiting.values()) w.reject(failed);
      thread.waiting.clear();
      if (this.thread === thread) this.thread = undefined;
      if (dead || thread.closing) return;
      dead = true;
      this.options.onFatal(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the writer thread exited with code ${code}`)));
    this.thread = thread;
    return thread;
  }

  private closeIfIdle(): void {
    const thread = this.thread;
    if (!thread || thread.closing || thread.waiting.size > 0) return;
    if (Date.now() - thread.lastUsed < this.idleMs) return;
    void this.end(thread);
  }

  /** Asks the thread to close its connection and end; sends after this start a new one. */
  private async end(thread: Thread): Promise<void> {
    if (!thread.closing) {
      thread.closing = true;
      if (this.thread === thread) this.thread = undefined;
      thread.worker.postMessage({ type: 'close' } satisfies WriterRequest);
    }
    await thread.exited;
  }
}
