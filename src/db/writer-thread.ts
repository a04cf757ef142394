import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import type { AppConfig } from '../config';
import type { Logger } from '../shared/logger';
import { createLogger } from '../shared/logger';
import { ThreadClient, serveThreadCalls } from '../shared/thread-call';
import type { WireError } from '../shared/wire-error';
import { errorFromWire, errorToWire } from '../shared/wire-error';
import type { Db } from './connect';
import { openDatabase } from './connect';
import { WriteBatcher } from './write-batcher';

/**
 * The writer threads (issue 11; one layer since issue 18 item 3). better-sqlite3
 * is synchronous: on a process's main thread every commit's fsync and every wait
 * for the write lock held by another process stalls the event loop (the api's
 * HTTP parsing and authentication, Haraka's SMTP sessions). A writer thread owns a
 * write connection of its own and runs named units (`email.commit`,
 * `mta.delivery-reports`, `mta.intake`) through one group commit (WriteBatcher):
 * units that arrive while a commit is in flight share the next one, each under its
 * own savepoint. A call resolves only after the commit holding its unit returned,
 * so a 202 or a 250 still means on disk.
 *
 * Each process has one thread script that lists its units and calls
 * `serveWriterUnits`; the main thread starts it with `WriterThread`, passing the
 * database file and the configuration (the one way: `WriterThreadData`). Errors
 * cross as WireError, so AppErrors (the spec's refusals) arrive whole. The
 * request/reply protocol, and the restart of a thread that died, is
 * src/shared/thread-call.ts.
 */

/** What a writer thread is started with (structured clone of the main thread's). */
export interface WriterThreadData {
  /** DATABASE_URL: the SQLite file or the PostgreSQL server (the process has applied the migrations). */
  readonly url: string;
  readonly config: AppConfig;
  /** The process the thread belongs to, for its log lines (`api`, `mta`). */
  readonly process: string;
}

/** What a unit runs with inside the thread. */
export interface WriterContext {
  readonly db: Db;
  /** The thread's one group commit: a unit does its writes in `writes.run`. */
  readonly writes: WriteBatcher;
  readonly config: AppConfig;
  readonly logger: Logger;
}

/** The units of one thread by name: what each is asked, what it answers. */
export type UnitMap = Record<string, { readonly request: unknown; readonly result: unknown }>;

export type WriterUnits<M extends UnitMap> = {
  readonly [K in keyof M]: (ctx: WriterContext, request: M[K]['request']) => Promise<M[K]['result']>;
};

interface UnitCall {
  readonly unit: string;
  readonly request: unknown;
}

export interface ServeUnitsOptions {
  /**
   * Run a batch without savepoints first (WriteBatcher's savepointsOnFailure): for
   * units whose effects are all inside the transaction, so they may run twice.
   */
  readonly savepointsOnFailure?: boolean;
}

/** The thread side: call once, at the top of the thread's script. */
export function serveWriterUnits<M extends UnitMap>(
  units: WriterUnits<M>,
  options: ServeUnitsOptions = {},
): void {
  const data = workerData as WriterThreadData;
  // PostgreSQL: a pool of its own, small, as the group commit holds one transaction at a
  // time; the second connection serves a unit's read outside it without waiting.
  const db = openDatabase(data.url, { poolSize: 2, applicationName: `mailroom-${data.process}-writer` });
  const ctx: WriterContext = {
    db,
    writes: new WriteBatcher(db, { savepointsOnFailure: options.savepointsOnFailure ?? false }),
    config: data.config,
    logger: createLogger({ level: data.config.logLevel, process: data.process, node: data.config.nodeName }),
  };
  const byName = new Map<string, (ctx: WriterContext, request: unknown) => Promise<unknown>>(
    Object.entries(units),
  );
  serveThreadCalls<UnitCall, unknown, WireError>(
    (call) => {
      const unit = byName.get(call.unit);
      if (!unit) return Promise.reject(new Error(`no writer unit named ${call.unit}`));
      return unit(ctx, call.request);
    },
    {
      toReply: errorToWire,
      // Closing the last connection checkpoints the WAL and removes -wal/-shm (SQLite).
      onClose: () => db.destroy(),
    },
  );
}

export interface WriterThreadOptions {
  /** The thread's script (a compiled .js file that calls serveWriterUnits). */
  readonly script: string;
  readonly data: WriterThreadData;
  readonly resourceLimits?: ResourceLimits | undefined;
  /** Whether an idle thread keeps the process alive (default true); see ThreadClientOptions. */
  readonly ref?: boolean | undefined;
  /** A thread idle this long ends (its heap goes back); the next call starts one. Default: never. */
  readonly idleMs?: number | undefined;
  /** What the calls waiting on a thread that died fail with (default: the death's own error). */
  readonly threadFailed?: ((cause: Error) => Error) | undefined;
  /** What a call after close() fails with. */
  readonly stopped?: (() => Error) | undefined;
  /** A thread died unasked; its waiting calls have already failed. */
  readonly onThreadDied?: ((err: Error) => void) | undefined;
}

/** The main thread's side: started on the first call, restarted after a death. */
export class WriterThread<M extends UnitMap> {
  private readonly client: ThreadClient<UnitCall, unknown, WireError>;

  constructor(options: WriterThreadOptions) {
    this.client = new ThreadClient({
      script: options.script,
      workerData: options.data,
      resourceLimits: options.resourceLimits,
      ref: options.ref,
      idleMs: options.idleMs,
      fromReply: errorFromWire,
      threadFailed: options.threadFailed,
      stopped: options.stopped,
      onThreadDied: options.onThreadDied,
    });
  }

  /** Whether a thread is up (it is not before the first call, nor while idle-closed). */
  get running(): boolean {
    return this.client.running;
  }

  /** Runs `unit` in the thread; resolves after the commit that holds it returned. */
  call<K extends keyof M & string>(
    unit: K,
    request: M[K]['request'],
    transfer?: readonly Transferable[],
  ): Promise<M[K]['result']> {
    // The thread's script serves WriterUnits<M>: its answer to `unit` is M[K]['result'].
    return this.client.call({ unit, request }, transfer);
  }

  /** Lets the thread answer what it was asked, close its connection and end; calls after this fail. */
  close(): Promise<void> {
    return this.client.close();
  }
}
