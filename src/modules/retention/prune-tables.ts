import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { QUEUES } from '../../jobs/queues';
import { minuteOf } from '../quota';
import { WEBHOOK_QUEUE } from '../webhooks';
import { idTimeFloor } from '../../shared/id-time-floor';
import type { RetentionPolicy } from './retention-policy';
import * as repo from './retention.repository';

/** Rows per DELETE statement: a few milliseconds of the write lock, which the API's group commit shares. */
export const DEFAULT_BATCH_SIZE = 1_000;
/** The least pause between two deletes, so writers of other processes waiting on the lock get it. */
export const DEFAULT_PAUSE_MS = 20;

export interface PruneOptions {
  readonly db: Kysely<Database>;
  readonly policy: RetentionPolicy;
  readonly now: Date;
  /** At most this many rows per DELETE (each its own short transaction). */
  readonly batchSize?: number | undefined;
  /** Pause between deletes; never shorter than the delete itself took (the lock is held ≤ half the time). */
  readonly pauseMs?: number | undefined;
  /** Stops between batches (lost lease, shutdown); the next run continues. */
  readonly signal?: AbortSignal | undefined;
  /** After each DELETE: which prune, and how many rows it removed. */
  readonly onBatch?: ((prune: PruneName, deleted: number) => void) | undefined;
}

export type PruneName =
  | 'succeededJobs'
  | 'failedJobs'
  | 'webhookEvents'
  | 'idempotencyKeys'
  | 'quotaBuckets'
  | 'quotaLedger'
  | 'capturedMessages';

export type PruneCounts = Readonly<Record<PruneName, number>>;

interface Loop {
  readonly batchSize: number;
  readonly pauseMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onBatch: PruneOptions['onBatch'];
}

/**
 * Select up to a batch of keys, delete them, pause, again, until a select comes
 * back short. A delete that removes nothing (every row changed in between) ends
 * the loop too: the next run looks again.
 */
async function drain<K>(
  name: PruneName,
  loop: Loop,
  select: (limit: number) => Promise<readonly K[]>,
  remove: (keys: readonly K[]) => Promise<number>,
): Promise<number> {
  let total = 0;
  while (!loop.signal?.aborted) {
    const keys = await select(loop.batchSize);
    if (keys.length === 0) break;
    const started = performance.now();
    const deleted = await remove(keys);
    const tookMs = performance.now() - started;
    loop.onBatch?.(name, deleted);
    total += deleted;
    if (keys.length < loop.batchSize || deleted === 0) break;
    await sleep(Math.max(loop.pauseMs, Math.ceil(tookMs)));
  }
  return total;
}

const before = (now: Date, ms: number): Date => new Date(now.getTime() - ms);

/**
 * Deletes what has outlived its policy, table by table, in bounded batches.
 * Never touches queued or running jobs, undispatched webhook events, or an event
 * a delivery can still be attempted for; customer data (messages, recipients,
 * events, inbound mail, suppressions, audit) is not here at all, only the captured
 * copy of test mail (CAPTURE_RETENTION_DAYS).
 */
export async function pruneTables(o: PruneOptions): Promise<PruneCounts> {
  const { db, policy, now } = o;
  const loop: Loop = {
    batchSize: o.batchSize ?? DEFAULT_BATCH_SIZE,
    pauseMs: o.pauseMs ?? DEFAULT_PAUSE_MS,
    signal: o.signal,
    onBatch: o.onBatch,
  };
  const counts: Record<PruneName, number> = {
    succeededJobs: 0,
    failedJobs: 0,
    webhookEvents: 0,
    idempotencyKeys: 0,
    quotaBuckets: 0,
    quotaLedger: 0,
    capturedMessages: 0,
  };

  const jobPolicies = [
    { name: 'succeededJobs', state: 'succeeded', ms: policy.succeededJobsMs },
    { name: 'failedJobs', state: 'failed', ms: policy.failedJobsMs },
  ] as const;
  for (const p of jobPolicies) {
    if (p.ms === null) continue;
    const cutoff = before(now, p.ms).toISOString();
    // Per queue: the claim index (queue, state, run_at) leads with the queue.
    for (const queue of QUEUES) {
      const q = { queue, state: p.state, before: cutoff };
      counts[p.name] += await drain(
        p.name,
        loop,
        (limit) => repo.selectFinishedJobs(db, q, limit),
        (ids) => repo.deleteFinishedJobs(db, q, ids),
      );
    }
  }

  if (policy.webhookEventsMs !== null) {
    const q = { before: before(now, policy.webhookEventsMs).toISOString(), webhookQueue: WEBHOOK_QUEUE };
    counts.webhookEvents = await drain(
      'webhookEvents',
      loop,
      (limit) => repo.selectExpiredOutbox(db, q, limit),
      (ids) => repo.deleteExpiredOutbox(db, q, ids),
    );
  }

  const keysBefore = before(now, policy.idempotencyKeysMs).toISOString();
  counts.idempotencyKeys = await drain(
    'idempotencyKeys',
    loop,
    (limit) => repo.selectExpiredIdempotencyKeys(db, keysBefore, limit),
    (keys) => repo.deleteIdempotencyKeys(db, keysBefore, keys),
  );

  const minuteBefore = minuteOf(before(now, policy.quotaBucketsMs).getTime());
  counts.quotaBuckets = await drain(
    'quotaBuckets',
    loop,
    (limit) => repo.selectExpiredQuotaBuckets(db, minuteBefore, limit),
    (keys) => repo.deleteQuotaBuckets(db, minuteBefore, keys),
  );

  const ledgerCutoff = before(now, policy.quotaLedgerMs);
  const ledger = { before: ledgerCutoff.toISOString(), idFloor: idTimeFloor('quo', ledgerCutoff.getTime()) };
  counts.quotaLedger = await drain(
    'quotaLedger',
    loop,
    (limit) => repo.selectExpiredLedger(db, ledger, limit),
    (ids) => repo.deleteLedger(db, ledger, ids),
  );

  const capturedBefore = before(now, policy.capturedMessagesMs).toISOString();
  counts.capturedMessages = await drain(
    'capturedMessages',
    loop,
    (limit) => repo.selectExpiredCaptures(db, capturedBefore, limit),
    (ids) => repo.deleteCaptures(db, capturedBefore, ids),
  );

  return counts;
}
