import type { Kysely, Transaction } from 'kysely';
import { CompiledQuery } from 'kysely';
import type { Database } from './schema';

// Each unit's savepoint, as fixed statements (kysely's savepoint builder costs a compile per unit).
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint unit');

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * Runs `work` under a savepoint of `trx`: released when it returns, rolled back alone
 * (the rest of the transaction kept) and the error rethrown when it throws. Savepoints
 * nest, so a unit of a group commit can hold units of its own.
 */
export async function inSavepoint<T>(trx: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const value = await work();
    await trx.executeQuery(RELEASE);
    return value;
  } catch (err) {
    await trx.executeQuery(ROLLBACK_TO);
    await trx.executeQuery(RELEASE);
    throw err;
  }
}

interface Pending {
  readonly work: Work<unknown>;
  /** Units with a key run in key order within their batch (see run). */
  readonly key: string | undefined;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  /** Times this unit was chosen as a deadlock's victim and put back (TRANSIENT_RETRIES at most). */
  retried: number;
}

/** `batch` with its keyed units in key order after the others; stable (Array.prototype.sort is). */
function inLockOrder(batch: Pending[]): Pending[] {
  if (!batch.some((p) => p.key !== undefined)) return batch;
  return batch.sort((x, y) =>
    x.key === y.key ? 0 : x.key === undefined ? -1 : y.key === undefined ? 1 : x.key < y.key ? -1 : 1,
  );
}

/** How often a unit that lost a deadlock is run again before its error is its caller's. */
const TRANSIENT_RETRIES = 3;

/**
 * PostgreSQL's deadlock_detected and serialization_failure: the server gave up this
 * statement so that another transaction could go on, and the same work, run again
 * once that transaction has committed, succeeds. SQLite has neither (one writer).
 */
function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

export interface WriteBatcherOptions {
  /** Units per transaction at most (default 256). */
  readonly maxBatch?: number;
  /**
   * Run a batch's units without savepoints first, and only when one of them throws,
   * roll the whole transaction back and run the batch again the usual way (each unit
   * under its savepoint). Saves two statements per unit (issue 11: the api's sends);
   * only for units that may run twice, i.e. whose effects are all inside the
   * transaction. Default false.
   */
  readonly savepointsOnFailure?: boolean;
}

/**
 * Group commit: write units submitted while a commit is in flight are run
 * together in the next transaction, each under its own savepoint, and all are
 * acknowledged after that one commit (one fsync) returns. A unit that throws is
 * rolled back to its savepoint alone; the others still commit. Nothing is
 * acknowledged before its commit, so 202 keeps meaning "on disk". A batch of one
 * unit needs no savepoint: the transaction is that unit's.
 *
 * Under no load a unit commits alone after one turn of the event loop; under load
 * batches grow by themselves to what arrived during the previous fsync.
 *
 * On PostgreSQL two group commits (two processes, two nodes) can wait on each other's
 * row or advisory locks, taken unit by unit in whatever order their units arrived; the
 * server then fails one statement with deadlock_detected. The unit it hit has been
 * rolled back (its savepoint, or the whole batch without savepoints), the others of its
 * batch go on and commit, and that unit is put back at the head of the queue to run in
 * the next transaction, after its rival had its turn: a deadlock costs a caller a delay
 * (PostgreSQL's deadlock_timeout, one second by default), not an error.
 */
export class WriteBatcher {
  private queue: Pending[] = [];
  private running = false;
  private readonly maxBatch: number;
  private readonly savepointsOnFailure: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    options: number | WriteBatcherOptions = {},
  ) {
    const o = typeof options === 'number' ? { maxBatch: options } : options;
    this.maxBatch = o.maxBatch ?? 256;
    this.savepointsOnFailure = o.savepointsOnFailure ?? false;
  }

  /**
   * Runs `work` in the next group commit. `lockKey` names what the unit locks first (the
   * api's sends: the account, whose quota lock it takes): units with a key run in key
   * order within their batch, after those without one (arrival order kept among equals),
   * so that two writers' batches take those locks in one global order and cannot
   * deadlock over them (PostgreSQL: two nodes' api writers).
   */
  run<T>(work: Work<T>, lockKey?: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work: work, key: lockKey, resolve: resolve, reject, retried: 0 });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        // better-sqlite3 commits (and fsyncs) synchronously, blocking the event loop: requests
        // that arrived meanwhile can only reach run() if we yield before taking the next batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = inLockOrder(this.queue.splice(0, this.maxBatch));
        const plain = batch.length === 1 || this.savepointsOnFailure;
        const again: Pending[] = [];
        if (!(plain && (await this.commit(batch, false, again)))) await this.commit(batch, true, again);
        this.queue.unshift(...again);
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * One transaction for `batch`. With `savepoints`, each unit runs under its own and
   * a unit that throws is rejected alone. Without, every unit runs straight in the
   * transaction, and a unit that throws rolls the whole batch back: false (nothing
   * settled, nothing written) when the batch has several units, so the caller runs
   * it again with savepoints; a single unit's failure is its own, rejected here.
   * A unit that lost a deadlock is added to `again` instead of being rejected.
   */
  private async commit(batch: readonly Pending[], savepoints: boolean, again: Pending[]): Promise<boolean> {
    let trx;
    try {
      trx = await this.db.startTransaction().execute();
    } catch (err) {
      for (const p of batch) p.reject(err);
      return true;
    }
    const done: { p: Pending; value: unknown }[] = [];
    let committing = false;
    try {
      for (const p of batch) {
        if (!savepoints) {
          done.push({ p, value: await p.work(trx) });
          continue;
        }
        try {
          done.push({ p, value: await inSavepoint(trx, () => p.work(trx)) });
        } catch (err) {
          this.failed(p, err, again);
        }
      }
      committing = true;
      await trx.commit().execute();
    } catch (err) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      if (!committing) {
        // Only without savepoints: a unit threw, and none of the batch stands.
        if (batch.length > 1) return false;
        if (batch[0]) this.failed(batch[0], err, again);
        return true;
      }
      for (const { p } of done) p.reject(err);
      return true;
    }
    for (const { p, value } of done) p.resolve(value);
    return true;
  }

  /** A unit's own failure: rejected, or put back when it only lost a deadlock. */
  private failed(p: Pending, err: unknown, again: Pending[]): void {
    if (isTransient(err) && p.retried < TRANSIENT_RETRIES) {
      p.retried++;
      again.push(p);
      return;
    }
    p.reject(err);
  }
}
