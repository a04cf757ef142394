import path from 'node:path';
import type { MtaOutcomePayload } from '../modules/delivery/mta-outcome';
import { ThreadClient } from '../shared/thread-call';
import type { IntakeCommit, IntakeJob } from './inbound-intake';
import type { OutcomeRecorder } from './outcome-jobs';

/**
 * What the writer thread is asked to commit: one hook's delivery outcomes, or one
 * accepted inbound message's jobs (src/mta/inbound-intake.ts).
 */
export type WriterCall =
  | { readonly kind: 'outcomes'; readonly payloads: readonly MtaOutcomePayload[] }
  | { readonly kind: 'intake'; readonly jobs: readonly IntakeJob[] };

export interface WriterThreadOptions {
  /** The database; default: the one the environment names (DATA_DIR / DATABASE_URL). */
  readonly file?: string | undefined;
  readonly script?: string | undefined;
}

/** The client of one writer thread: `call` resolves after the thread's commit returned. */
export interface WriterThread {
  /** Resolves with the number of rows created, once the commit holding them returned. */
  call(request: WriterCall): Promise<number>;
  /** Lets the thread answer what it was asked, close its connection and end; calls after this fail. */
  close(): Promise<void>;
}

/**
 * A worker thread with a database connection of its own (outcome-writer-thread.ts)
 * that commits what it is sent, with group commit, so Haraka's event loop never
 * blocks on a commit's fsync or on the write lock. A promise resolves only after the
 * thread's commit returned, exactly as an in-process group commit's does. A thread
 * that dies fails what it had pending (the callers act as for any failed write) and
 * the next call starts a new one (src/shared/thread-call.ts). Errors cross as their
 * message.
 */
export function startWriterThread(options: WriterThreadOptions = {}): WriterThread {
  const client = new ThreadClient<WriterCall, number, string>({
    script: options.script ?? path.join(__dirname, 'outcome-writer-thread.js'),
    workerData: { file: options.file },
    // Never what keeps Haraka alive: a graceful stop waits for its sessions, not for us.
    ref: false,
    fromReply: (message) => new Error(message),
  });
  return { call: (request) => client.call(request), close: () => client.close() };
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

/** Ends the shared thread once it has answered (its connection closed); see closeMtaRuntime. */
export async function closeSharedWriterThread(): Promise<void> {
  const thread = shared;
  shared = undefined;
  if (thread) await thread.close();
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
 * `close()` ends the thread once it has answered (later calls fail).
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
