import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { LeasedJob } from './lease-guard';
import { heldBy } from './lease-guard';

/**
 * Gives a claimed job back without spending an attempt: `queued` again, due at `runAt`, its
 * attempts as before the claim (the claim counted one). For a handler that found nothing it may
 * do yet (the worker's sender at a held destination, src/sender/pacing.ts): waiting is not a
 * failure, so it must not eat into max_attempts, however long the wait. Writes nothing unless
 * `owner` still holds this lease; false then.
 */
export async function release(
  db: Kysely<Database>,
  job: LeasedJob,
  owner: string,
  runAt: Date,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'queued',
      run_at: runAt.toISOString(),
      attempts: eb('attempts', '-', 1),
      updated_at: now.toISOString(),
      lease_expires_at: null,
    }))
    .where((eb) => heldBy(eb, job, owner))
    .where('attempts', '>', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
