import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { enqueue } from '../jobs';
import type { MtaOutcomePayload } from '../modules/emails/mta-outcome';
import { MTA_OUTCOME_QUEUE } from '../modules/emails/mta-outcome';

/**
 * The idempotency key of an outcome job. A hook that runs again for the same
 * event (Haraka crashed after the job was committed but before the queue file
 * was removed or renamed) finds its job already there. A final outcome happens
 * once per recipient; a deferral once per attempt.
 */
export function outcomeDedupeKey(
  p: Pick<MtaOutcomePayload, 'emailId' | 'recipient' | 'outcome' | 'attempt'>,
): string {
  const key = `${p.emailId}:${p.recipient}:${p.outcome}`;
  return p.outcome === 'deferred' ? `${key}:${p.attempt}` : key;
}

/**
 * Commits one `mta-outcome` job per payload, all or none, before the caller lets
 * Haraka go on (and unlink the queue file): a crash in between replays the hook,
 * which the dedupe key absorbs. Resolves with the number of jobs actually created.
 */
export async function recordOutcomes(
  db: Kysely<Database>,
  payloads: readonly MtaOutcomePayload[],
): Promise<number> {
  if (payloads.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    let created = 0;
    for (const payload of payloads) {
      const result = await enqueue(trx, {
        queue: MTA_OUTCOME_QUEUE,
        payload,
        dedupeKey: outcomeDedupeKey(payload),
      });
      if (result.created) created++;
    }
    return created;
  });
}
