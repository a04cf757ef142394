import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Moves a job not yet claimed to `runAt` (PATCH /v1/emails/{id}: a new scheduledAt).
 * False when no such job waits any more: claimed, done, or never enqueued.
 */
export async function rescheduleQueuedJob(
  trx: Kysely<Database>,
  job: { readonly queue: string; readonly dedupeKey: string },
  runAt: string,
  now: string,
): Promise<boolean> {
  const res = await trx
    .updateTable('jobs')
    .set({ run_at: runAt, updated_at: now })
    .where('queue', '=', job.queue)
    .where('dedupe_key', '=', job.dedupeKey)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
