import type { Expression, ExpressionBuilder } from 'kysely';
import type { Database } from '../db/schema';

/** What a lease holder needs to name its lease. */
export interface LeasedJob {
  readonly id: string;
  readonly attempts: number;
}

/**
 * Matches the row only while `owner` still holds this very lease. The owner alone
 * is not enough: if this runner's lease expired and the same runner re-claimed the
 * job, the stale run must not settle the new one, and `attempts` tells them apart
 * (every claim increments it). A writer that no longer matches changes nothing.
 */
export function heldBy(
  eb: ExpressionBuilder<Database, 'jobs'>,
  job: { readonly [K in keyof LeasedJob]: LeasedJob[K] | Expression<LeasedJob[K]> },
  owner: string | Expression<string>,
) {
  return eb.and([
    eb('id', '=', job.id),
    eb('state', '=', 'running'),
    eb('lease_owner', '=', owner),
    eb('attempts', '=', job.attempts),
  ]);
}
