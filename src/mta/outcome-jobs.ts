import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { WriteBatcher } from '../db/write-batcher';
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

/** Enqueues one `mta-outcome` job per payload in `trx`; resolves with the number actually created. */
export async function enqueueOutcomes(
  trx: Kysely<Database>,
  payloads: readonly MtaOutcomePayload[],
): Promise<number> {
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
  return db.transaction().execute((trx) => enqueueOutcomes(trx, payloads));
}

/** Records one hook's outcomes; see outcomeRecorder. */
export type OutcomeRecorder = (payloads: readonly MtaOutcomePayload[]) => Promise<number>;

/**
 * recordOutcomes with group commit: the outcomes of hooks that fire while a commit
 * is in flight (Haraka delivers many messages at once) share the next commit, each
 * hook's payloads still all or none (a savepoint each). Every hook is answered only
 * after the commit that holds its jobs has returned.
 */
export function outcomeRecorder(db: Kysely<Database>): OutcomeRecorder {
  const writes = new WriteBatcher(db);
  return (payloads) =>
    payloads.length === 0 ? Promise.resolve(0) : writes.run((trx) => enqueueOutcomes(trx, payloads));
}
