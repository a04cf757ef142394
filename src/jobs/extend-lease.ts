import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { LeasedJob } from './lease-guard';
import { heldBy } from './lease-guard';

/**
 * Pushes the lease to `leaseMs` from now, so a long handler is not mistaken for a
 * dead one. Returns false when the lease is no longer this owner's: the handler
 * should stop, since its outcome will not be recorded.
 */
export async function extendLease(
  db: Kysely<Database>,
  job: LeasedJob,
  owner: string,
  leaseMs: number,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where((eb) => heldBy(eb, job, owner))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
