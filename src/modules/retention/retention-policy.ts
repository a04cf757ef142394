import type { AppConfig } from '../../config';
import { THRESHOLDS } from '../abuse';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How long each kind of operational row or file is kept; null keeps it forever. */
export interface RetentionPolicy {
  /** Succeeded jobs, counted from `finished_at`. */
  readonly succeededJobsMs: number | null;
  /** Failed jobs, counted from `finished_at`. */
  readonly failedJobsMs: number | null;
  /** Dispatched outbox rows, counted from `dispatched_at`. */
  readonly webhookEventsMs: number | null;
  /** Idempotency keys, counted from `created_at`. */
  readonly idempotencyKeysMs: number;
  /** Per-minute quota buckets, counted from their minute. */
  readonly quotaBucketsMs: number;
  /** Quota ledger rows, counted from `created_at`. */
  readonly quotaLedgerMs: number;
  /** Captured test mail (issue 21), counted from `captured_at`: always bounded. */
  readonly capturedMessagesMs: number;
  /** A raw inbound file younger than this is never touched, referenced or not. */
  readonly orphanFileMinAgeMs: number;
}

/**
 * `Idempotency-Key` replays for 24 h (docs/api.md; src/modules/sending/idempotency.ts
 * ignores older rows). The hour on top absorbs clock differences between processes.
 */
export const IDEMPOTENCY_KEYS_MS = 24 * HOUR_MS + HOUR_MS;
/** The daily quota sums the buckets of the last 24 h (src/modules/quota/quota.ts); older ones count nowhere. */
export const QUOTA_BUCKETS_MS = 24 * HOUR_MS + HOUR_MS;
/**
 * The ledger's longest reader is the volume-spike baseline: the 7 days before the
 * last hour (src/modules/abuse/abuse.repository.ts). A cancelled message refunds
 * into the minute it was counted in, which leaves the daily window after 24 h, so
 * older rows have no reader. A day of margin on top.
 */
export const QUOTA_LEDGER_MS = (THRESHOLDS.volumeSpike.baselineHours + 1) * HOUR_MS + DAY_MS;
/**
 * The MX and `POST /internal/bounces` commit the job naming a raw file within
 * seconds of writing it (before answering 250/202); an hour is far beyond any
 * SMTP or HTTP timeout, so a younger file may still be about to be referenced.
 */
export const ORPHAN_FILE_MIN_AGE_MS = HOUR_MS;

const days = (n: number): number | null => (n === 0 ? null : n * DAY_MS);

export function retentionPolicy(
  config: Pick<
    AppConfig,
    | 'retentionSucceededJobsDays'
    | 'retentionFailedJobsDays'
    | 'retentionWebhookEventsDays'
    | 'captureRetentionDays'
  >,
): RetentionPolicy {
  return {
    succeededJobsMs: days(config.retentionSucceededJobsDays),
    failedJobsMs: days(config.retentionFailedJobsDays),
    webhookEventsMs: days(config.retentionWebhookEventsDays),
    idempotencyKeysMs: IDEMPOTENCY_KEYS_MS,
    quotaBucketsMs: QUOTA_BUCKETS_MS,
    quotaLedgerMs: QUOTA_LEDGER_MS,
    capturedMessagesMs: config.captureRetentionDays * DAY_MS,
    orphanFileMinAgeMs: ORPHAN_FILE_MIN_AGE_MS,
  };
}
