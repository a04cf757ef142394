import type { Kysely } from 'kysely';
import { PreparedQuery } from '../db/precompiled';
import type { Database } from '../db/schema';
import { isoNow } from '../shared/clock';
import type { LeasedJob } from './lease-guard';
import { heldBy } from './lease-guard';

/** Runs once per job: compiled once (db/precompiled.ts). */
const completeJob = new PreparedQuery<{ id: string; attempts: number; owner: string; now: string }, unknown>(
  (db, s) =>
    db
      .updateTable('jobs')
      .set({
        state: 'succeeded',
        finished_at: s.param('now'),
        updated_at: s.param('now'),
        lease_expires_at: null,
        last_error: null,
      })
      .where((eb) => heldBy(eb, { id: s.param('id'), attempts: s.param('attempts') }, s.param('owner'))),
);

/**
 * Marks the job succeeded. Returns false when `owner` no longer holds the lease
 * (it expired and another claim took the job); the row is then left alone.
 * lease_owner is kept as a record of who ran it.
 */
export async function complete(db: Kysely<Database>, job: LeasedJob, owner: string): Promise<boolean> {
  const result = await completeJob.run(db, { id: job.id, attempts: job.attempts, owner, now: isoNow() });
  return (result.numAffectedRows ?? 0n) > 0n;
}
