import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { WriteBatcher } from '../db/write-batcher';
import { inSavepoint } from '../db/write-batcher';
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
 * (rolled back to its own savepoint) is enqueued as an `mta-outcome` job instead,
 * and the worker deals with it. Idempotent: a replay
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

/** Records one hook's delivery reports; resolves with how many are new (see recordDeliveryReports). */
export type DeliveryReportsRecorder = (payloads: readonly MtaOutcomePayload[]) => Promise<number>;

/**
 * The mta writer thread's `mta.delivery-reports` unit (src/mta/mta-writer.ts): one
 * hook's reports applied, or left to `mta-outcome` jobs (applyOrEnqueueOutcomes),
 * all or none, in a unit of the group commit `writes`: the reports of hooks that
 * fire while a commit is in flight (Haraka delivers many messages at once) share
 * the next commit. Each report is stamped with the node's name. The hook is answered only after that commit returned; what was
 * applied is then logged (`email_delivered` …) as the worker's handler would.
 */
export async function recordDeliveryReports(
  deps: {
    readonly writes: Pick<WriteBatcher, 'run'>;
    readonly logger: Logger;
    /** NODE_NAME: the timeline shows which node's MTA reported, also when a job applies it later. */
    readonly node?: string | undefined;
  },
  reports: readonly MtaOutcomePayload[],
): Promise<number> {
  if (reports.length === 0) return 0;
  const node = deps.node;
  const payloads = node === undefined ? reports : reports.map((p) => ({ ...p, node }));
  const dispositions = await deps.writes.run((trx) => applyOrEnqueueOutcomes(trx, payloads));
  for (const d of dispositions) if ('applied' in d) logApplied(deps.logger, d.payload, d.applied);
  return createdCount(dispositions);
}
