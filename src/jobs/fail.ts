import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { BackoffPolicy } from './backoff';
import { backoffMs, DEFAULT_BACKOFF } from './backoff';
import type { LeasedJob } from './lease-guard';
import { heldBy } from './lease-guard';

/** last_error is for operators; a whole stack trace or response body does not belong in the row. */
const MAX_ERROR_LENGTH = 2_000;

export interface FailOptions {
  /** False for a permanent failure: the job ends `failed` whatever attempts remain. */
  readonly retryable: boolean;
  /** Overrides the backoff, e.g. a peer's Retry-After. */
  readonly retryDelayMs?: number | undefined;
  readonly backoff?: BackoffPolicy | undefined;
  readonly now?: Date | undefined;
  readonly random?: (() => number) | undefined;
}

export type FailOutcome =
  | { readonly outcome: 'retry'; readonly runAt: string; readonly delayMs: number }
  | { readonly outcome: 'dead' }
  /** The lease was no longer ours; nothing was written. */
  | { readonly outcome: 'lost' };

/** The message stored and logged for a failure: `Name: message`, bounded. */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error)
    text = error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
  else if (typeof error === 'string') text = error;
  else {
    try {
      text = JSON.stringify(error) ?? String(error);
    } catch {
      text = String(error);
    }
  }
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

/**
 * Records a failed attempt. While attempts remain and the failure is retryable the
 * job goes back to `queued` with `run_at` pushed out by the backoff; otherwise it
 * becomes terminal `failed`. Writes nothing unless `owner` still holds the lease.
 */
export async function fail(
  db: Kysely<Database>,
  job: LeasedJob & { readonly maxAttempts: number },
  owner: string,
  error: unknown,
  options: FailOptions,
): Promise<FailOutcome> {
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const lastError = describeError(error);

  if (options.retryable && job.attempts < job.maxAttempts) {
    const delayMs =
      options.retryDelayMs ?? backoffMs(job.attempts, options.backoff ?? DEFAULT_BACKOFF, options.random);
    const runAt = new Date(now.getTime() + delayMs).toISOString();
    const result = await db
      .updateTable('jobs')
      .set({
        state: 'queued',
        run_at: runAt,
        last_error: lastError,
        updated_at: nowIso,
        lease_expires_at: null,
      })
      .where((eb) => heldBy(eb, job, owner))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? { outcome: 'retry', runAt, delayMs } : { outcome: 'lost' };
  }

  const result = await db
    .updateTable('jobs')
    .set({
      state: 'failed',
      last_error: lastError,
      finished_at: nowIso,
      updated_at: nowIso,
      lease_expires_at: null,
    })
    .where((eb) => heldBy(eb, job, owner))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? { outcome: 'dead' } : { outcome: 'lost' };
}
