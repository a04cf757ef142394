import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoNow } from '../shared/clock';
import type { LeasedJob } from './lease-guard';
import { heldBy } from './lease-guard';

/**
 * Marks the job succeeded. Returns false when `owner` no longer holds the lease
 * (it expired and another claim took the job); the row is then left alone.
 * lease_owner is kept as a record of who ran it.
 */
export async function complete(db: Kysely<Database>, job: LeasedJob, owner: string): Promise<boolean> {
  const now = isoNow();
  const result = await db
    .updateTable('jobs')
    .set({ state: 'succeeded', finished_at: now, updated_at: now, lease_expires_at: null, last_error: null })
    .where((eb) => heldBy(eb, job, owner))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
