import type { Expression, ExpressionBuilder } from 'kysely';
import type { Database } from '../db/schema';

type JobsEb = ExpressionBuilder<Database, 'jobs'>;

/** Due, or running under a lease that expired with attempts to spare. */
export function claimable(eb: JobsEb, now: string | Expression<string>) {
  return eb.or([
    eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
    eb.and([
      eb('state', '=', 'running'),
      eb('lease_expires_at', '<=', now),
      eb('attempts', '<', eb.ref('max_attempts')),
    ]),
  ]);
}

/** Running under an expired lease with no attempt left: running it again would exceed max_attempts. */
export function expiredOnLastAttempt(eb: JobsEb, now: string | Expression<string>) {
  return eb.and([
    eb('state', '=', 'running'),
    eb('lease_expires_at', '<=', now),
    eb('attempts', '>=', eb.ref('max_attempts')),
  ]);
}
