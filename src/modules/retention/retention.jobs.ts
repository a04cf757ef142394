import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { EnqueueResult } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import type { Logger } from '../../shared/logger';
import type { JobHandler } from '../../jobs/job-handler';
import type { OrphanSweepResult } from './orphan-raw-files';
import { sweepOrphanRawFiles } from './orphan-raw-files';
import { sweepOrphanRawRows } from './orphan-raw-rows';
import { WriteBatcher } from '../../db/write-batcher';
import { rescueFailedInbound } from '../inbound';
import { rawStoreFor } from '../inbound';
import type { PruneCounts, PruneOptions } from './prune-tables';
import { pruneTables } from './prune-tables';
import { retentionPolicy } from './retention-policy';

export const RETENTION_QUEUE = 'retention';
/** Hourly: each run has at most an hour of expiries to delete, in a few short batches. */
export const RETENTION_INTERVAL_MS = 3_600_000;
const KEY_PREFIX = 'run:';

export type RetentionConfig = Pick<
  AppConfig,
  | 'dataDir'
  | 'retentionSucceededJobsDays'
  | 'retentionFailedJobsDays'
  | 'retentionWebhookEventsDays'
  | 'captureRetentionDays'
>;

/** Enqueues the run of the slot `now` falls in (or the next): one job per slot, whoever asks. */
export async function scheduleRetention(
  db: Kysely<Database>,
  options: { readonly now?: Date | undefined; readonly slot?: 'current' | 'next' } = {},
): Promise<EnqueueResult> {
  const index =
    Math.floor((options.now ?? new Date()).getTime() / RETENTION_INTERVAL_MS) +
    (options.slot === 'next' ? 1 : 0);
  const runAt = new Date(index * RETENTION_INTERVAL_MS);
  return enqueue(db, {
    queue: RETENTION_QUEUE,
    payload: { slot: runAt.toISOString() },
    runAt,
    dedupeKey: `${KEY_PREFIX}${runAt.toISOString()}`,
    maxAttempts: 3,
  });
}

export interface RetentionSummary {
  readonly rows: PruneCounts;
  readonly orphans: OrphanSweepResult;
  readonly durationMs: number;
}

export interface RunRetentionInput extends Pick<PruneOptions, 'batchSize' | 'pauseMs' | 'onBatch'> {
  readonly db: Kysely<Database>;
  readonly config: RetentionConfig;
  readonly now: Date;
  readonly signal?: AbortSignal | undefined;
}

/** One retention pass: expired rows first (a pruned failed inbound job frees its raw copy), then raw copies. */
export async function runRetention(input: RunRetentionInput): Promise<RetentionSummary> {
  const started = performance.now();
  const policy = retentionPolicy(input.config);
  const rows = await pruneTables({
    db: input.db,
    policy,
    now: input.now,
    batchSize: input.batchSize,
    pauseMs: input.pauseMs,
    signal: input.signal,
    onBatch: input.onBatch,
  });
  const sweep = { db: input.db, now: input.now, minAgeMs: policy.orphanFileMinAgeMs, signal: input.signal };
  // The raw copies live where the backend's raw store keeps them (src/modules/inbound/raw-store.ts).
  const orphans =
    rawStoreFor(input.db, input.config.dataDir).kind === 'database'
      ? await sweepOrphanRawRows(sweep)
      : await sweepOrphanRawFiles({ ...sweep, dataDir: input.config.dataDir });
  return { rows, orphans, durationMs: Math.round(performance.now() - started) };
}

export function logRetention(log: Logger, summary: RetentionSummary): void {
  const { orphans } = summary;
  if (orphans.skipped) {
    log.warn(
      {
        event: 'retention_orphan_sweep_skipped',
        reason: orphans.skipped.reason,
        rawPath: orphans.skipped.path,
      },
      'raw files not swept: the database names raw files outside DATA_DIR/inbound',
    );
  }
  log.info(
    {
      event: 'retention_swept',
      ...summary.rows,
      orphanRawFiles: orphans.deleted,
      emptyInboundDirs: orphans.directories,
      durationMs: summary.durationMs,
    },
    'retention sweep',
  );
}

/**
 * The `retention` queue's handler: chains the next run first (so a failing run
 * does not end the schedule), then runs. Stops between batches when the lease is
 * lost or the worker shuts down; the next run continues where it stopped.
 */
export function createRetentionHandler(deps: {
  readonly db: Kysely<Database>;
  readonly config: RetentionConfig;
  /** The worker's group commit, for the rescue of failed inbound jobs; default one of its own. */
  readonly writes?: Pick<WriteBatcher, 'run'> | undefined;
}): JobHandler {
  const writes = deps.writes ?? new WriteBatcher(deps.db);
  return async (_job, ctx) => {
    const log = ctx.logger.child({ module: 'retention' });
    const now = new Date();
    await scheduleRetention(deps.db, { now, slot: 'next' });
    // Before finished jobs are pruned: a failed inbound job's message is stored, not lost with it.
    await rescueFailedInbound({ db: deps.db, writes, logger: log });
    const summary = await runRetention({ db: deps.db, config: deps.config, now, signal: ctx.signal });
    logRetention(log, summary);
  };
}

/** Seeded at worker start: idempotent, one job per hourly slot. */
export async function seedRetentionSchedule(db: Kysely<Database>): Promise<EnqueueResult> {
  return scheduleRetention(db, { slot: 'current' });
}
