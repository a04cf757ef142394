import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MtaOutcomePayload } from '../modules/emails/mta-outcome';
import type { IntakeCommit, IntakeJob } from './inbound-intake';
import type { OutcomeRecorder } from './outcome-jobs';

/**
 * What the writer thread is asked to commit: one hook's delivery outcomes, or one
 * accepted inbound message's jobs (src/mta/inbound-intake.ts).
 */
export type WriterCall =
  | { readonly kind: 'outcomes'; readonly payloads: readonly MtaOutcomePayload[] }
  | { readonly kind: 'intake'; readonly jobs: readonly IntakeJob[] };

/** A call as posted to the thread. */
export type WriterRequest = WriterCall & { readonly id: number };

/**
 * The thread's answer, sent once the commit holding the request's rows has returned
 * (or failed): `value` is the number of rows created.
 */
export type WriterReply =
  { readonly id: number; readonly value: number } | { readonly id: number; readonly error: string };

interface Waiter {
  resolve(value: number): void;
  reject(err: Error): void;
}

export interface WriterThreadOptions {
  /** The database; default: the one the environment names (DATA_DIR / DATABASE_URL). */
  readonly file?: string | undefined;
  readonly script?: string | undefined;
}

/** The client of one writer thread: `call` resolves after the thread's commit returned. */
export interface WriterThread {
  call(request: WriterCall): Promise<number>;
  close(): Promise<void>;
}

/**
 * A worker thread with a database connection of its own (outcome-writer-thread.ts)
 * that commits what it is sent, with group commit, so Haraka's event loop never
 * blocks on a commit's fsync or on the write lock. A promise resolves only after the
 * thread's commit returned, exactly as an in-process group commit's does. A thread
 * that dies fails what it had pending (the callers act as for any failed write) and
 * the next call starts a new one.
 */
export function startWriterThread(options: WriterThreadOptions = {}): WriterThread {
  const script = options.script ?? path.join(__dirname, 'outcome-writer-thread.js');
  let thread: Worker | undefined;
  let seq = 0;
  const waiting = new Map<number, Waiter>();

  const failAll = (err: Error): void => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  const start = (): Worker => {
    const t = new Worker(script, { workerData: { file: options.file } });
    // Never what keeps Haraka alive: a graceful stop waits for its sessions, not for us.
    t.unref();
    t.on('message', (reply: WriterReply) => {
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if ('error' in reply) w.reject(new Error(reply.error));
      else w.resolve(reply.value);
    });
    t.on('error', (err: unknown) => {
      if (thread === t) thread = undefined;
      failAll(err instanceof Error ? err : new Error(String(err)));
    });
    t.on('exit', (code) => {
      if (thread === t) thread = undefined;
      failAll(new Error(`writer thread exited (${code})`));
    });
    return t;
  };

  return {
    call(request) {
      const t = (thread ??= start());
      const id = ++seq;
      return new Promise<number>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        t.postMessage({ ...request, id } satisfies WriterRequest);
      });
    },
    async close() {
      const t = thread;
      thread = undefined;
      if (t) await t.terminate();
    },
  };
}

let shared: WriterThread | undefined;

/**
 * The Haraka process's one writer thread (outcomes and inbound intake share it, and
 * so share commits). Started on first call; plugins are loaded with a real
 * `require`, so every plugin gets this instance.
 */
export function sharedWriterThread(): WriterThread {
  shared ??= startWriterThread();
  return shared;
}

/** The thread given, else a thread of its own when a file or script is named, else the shared one. */
function threadFor(
  options: WriterThreadOptions & { readonly thread?: WriterThread | undefined },
): WriterThread {
  if (options.thread) return options.thread;
  return options.file === undefined && options.script === undefined
    ? sharedWriterThread()
    : startWriterThread(options);
}

/**
 * outcomeRecorder (group commit, src/mta/outcome-jobs.ts) run in the writer thread:
 * resolves with the number of outcomes applied or enqueued, after their commit.
 * `close()` stops the thread (a later call starts it again).
 */
export function threadedOutcomeRecorder(
  options: WriterThreadOptions & { readonly thread?: WriterThread | undefined } = {},
): OutcomeRecorder & { close(): Promise<void> } {
  const thread = threadFor(options);
  const record: OutcomeRecorder = (payloads) =>
    payloads.length === 0 ? Promise.resolve(0) : thread.call({ kind: 'outcomes', payloads });
  return Object.assign(record, { close: () => thread.close() });
}

/**
 * The MX intake's commit (src/mta/inbound-intake.ts) run in the writer thread: one
 * message's jobs in one savepoint of the thread's group commit; resolves with the
 * number of jobs created, after the commit holding them returned.
 */
export function threadedIntakeCommit(
  options: WriterThreadOptions & { readonly thread?: WriterThread | undefined } = {},
): IntakeCommit & { close(): Promise<void> } {
  const thread = threadFor(options);
  const commit: IntakeCommit = (jobs) => thread.call({ kind: 'intake', jobs });
  return Object.assign(commit, { close: () => thread.close() });
}
