import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { parentPort, Worker } from 'node:worker_threads';

/**
 * Calls into a worker thread that owns something synchronous (a SQLite write
 * connection): each call is a request posted with a sequence number, answered by
 * one reply with the same number. A thread that dies fails every call still
 * waiting on it, and the next call starts a new thread. Used by the writer
 * threads (src/db/writer-thread.ts); the thread side is `serveThreadCalls`.
 *
 * What crosses is the caller's choice: errors come back as whatever `toReply`
 * made of them in the thread and `fromReply` turns into the rejection (the
 * writer threads keep AppErrors whole with src/shared/wire-error.ts).
 */

/** Main thread → worker thread. */
export type ThreadRequest<Req> =
  { readonly type: 'call'; readonly seq: number; readonly request: Req } | { readonly type: 'close' };

/** Worker thread → main thread: one per call. */
export type ThreadReply<Res, E> =
  | { readonly seq: number; readonly ok: true; readonly value: Res }
  | { readonly seq: number; readonly ok: false; readonly error: E };

export interface ThreadClientOptions<E> {
  /** The thread's script (a compiled .js file that calls serveThreadCalls). */
  readonly script: string;
  readonly workerData?: unknown;
  readonly resourceLimits?: ResourceLimits | undefined;
  /**
   * Whether an idle thread keeps the process alive (default true). With false, the
   * thread holds the process only while a call waits on it or it is closing, so an
   * answer is never lost to the process ending first.
   */
  readonly ref?: boolean | undefined;
  /**
   * A thread with no call waiting for this long is closed (its heap goes back);
   * the next call starts one. Default: never.
   */
  readonly idleMs?: number | undefined;
  /** Turns a reply's error into the call's rejection. */
  readonly fromReply: (error: E) => Error;
  /** What the calls waiting on a thread that died fail with (default: the death's own error). */
  readonly threadFailed?: ((cause: Error) => Error) | undefined;
  /** What a call after close() fails with (default: an Error saying so). */
  readonly stopped?: (() => Error) | undefined;
  /** A thread died unasked (not while closing); its waiting calls have already failed. */
  readonly onThreadDied?: ((err: Error) => void) | undefined;
}

interface Waiting<Res> {
  resolve(value: Res): void;
  reject(err: Error): void;
}

/** One run of the thread, from its first call to its end. */
interface Run<Res> {
  readonly worker: Worker;
  readonly waiting: Map<number, Waiting<Res>>;
  readonly exited: Promise<void>;
  closing: boolean;
  lastUsed: number;
}

export class ThreadClient<Req, Res, E> {
  private run: Run<Res> | undefined;
  private seq = 0;
  private closed = false;
  private readonly sweep: NodeJS.Timeout | undefined;

  constructor(private readonly options: ThreadClientOptions<E>) {
    const idleMs = options.idleMs;
    if (idleMs !== undefined)
      this.sweep = setInterval(() => this.closeIfIdle(idleMs), Math.max(100, idleMs / 2)).unref();
  }

  /** Whether a thread is up (it is not before the first call, nor while idle-closed). */
  get running(): boolean {
    return this.run !== undefined;
  }

  /** Posts `request` (structured clone; `transfer` moves buffers instead of copying them). */
  call(request: Req, transfer?: readonly Transferable[]): Promise<Res> {
    if (this.closed)
      return Promise.reject(this.options.stopped?.() ?? new Error('the thread client is closed'));
    const run = this.current();
    const seq = ++this.seq;
    run.lastUsed = Date.now();
    return new Promise<Res>((resolve, reject) => {
      if (run.waiting.size === 0 && this.options.ref === false) run.worker.ref();
      run.waiting.set(seq, { resolve, reject });
      const message: ThreadRequest<Req> = { type: 'call', seq, request };
      run.worker.postMessage(message, transfer);
    });
  }

  /**
   * Lets the thread answer what it was asked, then ends it and waits for it; calls
   * after this fail (`stopped`).
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    const run = this.run;
    if (run) await this.end(run);
  }

  private current(): Run<Res> {
    if (this.run && !this.run.closing) return this.run;
    const worker = new Worker(this.options.script, {
      workerData: this.options.workerData,
      resourceLimits: this.options.resourceLimits,
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const run: Run<Res> = { worker, waiting: new Map(), exited, closing: false, lastUsed: Date.now() };
    worker.on('message', (reply: ThreadReply<Res, E>) => {
      const w = run.waiting.get(reply.seq);
      if (!w) return;
      run.waiting.delete(reply.seq);
      if (run.waiting.size === 0 && this.options.ref === false && !run.closing) worker.unref();
      run.lastUsed = Date.now();
      if (reply.ok) w.resolve(reply.value);
      else w.reject(this.options.fromReply(reply.error));
    });
    let dead = false;
    const fail = (err: Error): void => {
      if (run.waiting.size > 0) {
        const failed = this.options.threadFailed?.(err) ?? err;
        for (const w of run.waiting.values()) w.reject(failed);
        run.waiting.clear();
      }
      if (this.run === run) this.run = undefined;
      if (dead || run.closing) return;
      dead = true;
      this.options.onThreadDied?.(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) =>
      fail(new Error(`the thread ${this.options.script} exited with code ${code}`)),
    );
    // After the listeners: adding a 'message' listener refs the worker's port again.
    // call() refs it while answers are awaited.
    if (this.options.ref === false) worker.unref();
    this.run = run;
    return run;
  }

  private closeIfIdle(idleMs: number): void {
    const run = this.run;
    if (!run || run.closing || run.waiting.size > 0) return;
    if (Date.now() - run.lastUsed < idleMs) return;
    void this.end(run);
  }

  /** Asks the thread to end once it has answered; a call after this starts a new one. */
  private async end(run: Run<Res>): Promise<void> {
    if (!run.closing) {
      run.closing = true;
      if (this.run === run) this.run = undefined;
      // An unreferenced thread too is waited for while it closes its resources
      // (a database connection left open keeps its -wal file), then lets go.
      run.worker.ref();
      run.worker.postMessage({ type: 'close' } satisfies ThreadRequest<Req>);
    }
    await run.exited;
  }
}

export interface ServeOptions<E> {
  /** The reply's form of an error `handle` threw (it must survive structured clone). */
  readonly toReply: (err: unknown) => E;
  /** Runs once every call was answered after a close request, before the thread ends (close connections). */
  readonly onClose?: (() => Promise<void> | void) | undefined;
}

/**
 * The thread side of ThreadClient: answers each call with `handle`'s result (as
 * soon as it settles, in any order) and, asked to close, ends once nothing is in
 * flight. Call it once, at the top of the thread's script.
 */
// Req names what the thread is asked: ThreadClient<Req, …> on the other side posts it.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function serveThreadCalls<Req, Res, E>(
  handle: (request: Req) => Promise<Res>,
  options: ServeOptions<E>,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveThreadCalls runs in a worker thread');
  let inFlight = 0;
  let closing = false;
  let closed = false;
  const closeWhenDone = (): void => {
    if (!closing || closed || inFlight > 0) return;
    closed = true;
    // Closing the port lets the thread end; the client sees its 'exit'.
    void Promise.resolve()
      .then(options.onClose)
      .catch(() => undefined)
      .then(() => port.close());
  };
  const reply = (message: ThreadReply<Res, E>): void => port.postMessage(message);
  port.on('message', (msg: ThreadRequest<Req>) => {
    if (msg.type === 'close') {
      closing = true;
      closeWhenDone();
      return;
    }
    const { seq } = msg;
    inFlight++;
    let settled: Promise<Res>;
    try {
      settled = handle(msg.request);
    } catch (err) {
      settled = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    settled
      .then(
        (value) => reply({ seq, ok: true, value }),
        (err: unknown) => reply({ seq, ok: false, error: options.toReply(err) }),
      )
      .finally(() => {
        inFlight--;
        closeWhenDone();
      });
  });
}
