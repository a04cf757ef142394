import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MtaOutcomePayload } from '../modules/emails/mta-outcome';
import type { OutcomeRecorder } from './outcome-jobs';

/** One hook's outcomes, posted to the writer thread. */
export interface OutcomeRequest {
  readonly id: number;
  readonly payloads: readonly MtaOutcomePayload[];
}

/** The thread's answer, sent once the commit holding the request's jobs has returned (or failed). */
export type OutcomeReply =
  { readonly id: number; readonly created: number } | { readonly id: number; readonly error: string };

interface Waiter {
  resolve(created: number): void;
  reject(err: Error): void;
}

/**
 * outcomeRecorder (group commit, src/mta/outcome-jobs.ts) run in a worker thread
 * with a database connection of its own, so Haraka's event loop never blocks on a
 * commit's fsync or on the write lock. A promise resolves only after the thread's
 * commit returned, exactly as the in-process recorder's does. A thread that dies
 * fails what it had pending (the hooks log `mta_outcome_write_failed` and act as
 * for any failed write) and the next call starts a new one.
 */
export function threadedOutcomeRecorder(
  options: {
    /** The database; default: the one the environment names (DATA_DIR / DATABASE_URL). */
    readonly file?: string | undefined;
    readonly script?: string | undefined;
  } = {},
): OutcomeRecorder & { close(): Promise<void> } {
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
    t.on('message', (reply: OutcomeReply) => {
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if ('error' in reply) w.reject(new Error(reply.error));
      else w.resolve(reply.created);
    });
    t.on('error', (err: unknown) => {
      if (thread === t) thread = undefined;
      failAll(err instanceof Error ? err : new Error(String(err)));
    });
    t.on('exit', (code) => {
      if (thread === t) thread = undefined;
      failAll(new Error(`outcome writer thread exited (${code})`));
    });
    return t;
  };

  const record: OutcomeRecorder = (payloads) => {
    if (payloads.length === 0) return Promise.resolve(0);
    const t = (thread ??= start());
    const id = ++seq;
    return new Promise<number>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      t.postMessage({ id, payloads } satisfies OutcomeRequest);
    });
  };
  return Object.assign(record, {
    async close(): Promise<void> {
      const t = thread;
      thread = undefined;
      if (t) await t.terminate();
    },
  });
}
