import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { inSavepoint, WriteBatcher } from '../db/write-batcher';
import { enqueue } from '../jobs';
import type { MtaOutcomePayload } from '../modules/delivery/mta-outcome';
import { MTA_OUTCOME_QUEUE } from '../modules/delivery/mta-outcome';
import type { OutcomeApplied } from '../modules/delivery/outcome-job';
import { applyMtaOutcomeIn, logApplied } from '../modules/delivery/outcome-job';
import type { Logger } from '../shared/logger';

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

/** One payload's fate in applyOrEnqueueOutcomes: applied (or found already applied), else left to a job. */
export type OutcomeDisposition =
  | { readonly payload: MtaOutcomePayload; readonly applied: OutcomeApplied }
  | { readonly payload: MtaOutcomePayload; readonly enqueued: boolean };

/**
 * In `trx`, per payload: applies the report at once (the worker's `applyMtaOutcome`:
 * recipient and message status, timeline, webhook outbox, suppression) when the
 * recipient is recorded as handed off, which saves the `mta-outcome` job, its claim
 * and a second commit. A report that arrived before the worker recorded the hand-off
 * (`early`), that names no known message or recipient, or whose application fails
 * (rolled back to its own savepoint) is enqueued as a job instead, exactly as
 * enqueueOutcomes does, and the worker deals with it as before. Idempotent: a replay
 * finds the report applied (`ignored`) or the job there (dedupe key).
 */
export async function applyOrEnqueueOutcomes(
  trx: Kysely<Database>,
  payloads: readonly MtaOutcomePayload[],
): Promise<OutcomeDisposition[]> {
  const out: OutcomeDisposition[] = [];
  for (const payload of payloads) {
    let applied: OutcomeApplied | undefined;
    try {
      applied = await inSavepoint(trx, () => applyMtaOutcomeIn(trx, payload, { acceptBeforeSent: false }));
    } catch {
      // Rolled back to its savepoint: left to a job below.
    }
    if (applied?.kind === 'applied' || applied?.kind === 'ignored') {
      out.push({ payload, applied });
      continue;
    }
    const result = await enqueue(trx, {
      queue: MTA_OUTCOME_QUEUE,
      payload,
      dedupeKey: outcomeDedupeKey(payload),
    });
    out.push({ payload, enqueued: result.created });
  }
  return out;
}

/** How many of `dispositions` are new: applied now, or a job created now. */
export function createdCount(dispositions: readonly OutcomeDisposition[]): number {
  return dispositions.filter((d) => ('applied' in d ? d.applied.kind === 'applied' : d.enqueued)).length;
}

/** Records one hook's outcomes; see outcomeRecorder. */
export type OutcomeRecorder = (payloads: readonly MtaOutcomePayload[]) => Promise<number>;

/**
 * recordOutcomes with group commit: the outcomes of hooks that fire while a commit
 * is in flight (Haraka delivers many messages at once) share the next commit, each
 * hook's payloads still all or none (a savepoint each). Every hook is answered only
 * after the commit that holds its jobs has returned.
 */
export function outcomeRecorder(
  db: Kysely<Database>,
  options: {
    /**
     * Apply reports in the same commit (applyOrEnqueueOutcomes) instead of only
     * enqueueing them; what was applied is logged here (`email_delivered` …) after the
     * commit, as the worker's handler would.
     */
    readonly apply?: { readonly logger: Logger } | undefined;
    /** The group commit to join (shared with other writers of the same connection); default: its own. */
    readonly writes?: WriteBatcher | undefined;
  } = {},
): OutcomeRecorder {
  const writes = options.writes ?? new WriteBatcher(db);
  const apply = options.apply;
  if (apply === undefined) {
    return (payloads) =>
      payloads.length === 0 ? Promise.resolve(0) : writes.run((trx) => enqueueOutcomes(trx, payloads));
  }
  return async (payloads) => {
    if (payloads.length === 0) return 0;
    const dispositions = await writes.run((trx) => applyOrEnqueueOutcomes(trx, payloads));
    for (const d of dispositions) if ('applied' in d) logApplied(apply.logger, d.payload, d.applied);
    return createdCount(dispositions);
  };
}
