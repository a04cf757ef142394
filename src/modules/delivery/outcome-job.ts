import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailStatus } from '../../db/schema';
import type { WriteBatcher } from '../../db/write-batcher';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { JobHandler } from '../../jobs/job-handler';
import { PermanentJobError } from '../../jobs/job-handler';
import {
  aggregate,
  eventMessageFor,
  formatSmtpResponse,
  logEventFor,
  recipientStep,
  webhookEventFor,
} from './delivery-status';
import * as repo from './delivery.repository';
import { recordEmailEvent } from '../emails';
import { recordOutbox } from '../webhooks';
import type { MtaOutcomePayload } from './mta-outcome';
import { parseMtaOutcome } from './mta-outcome';
import { requestAbuseEvaluation } from '../abuse';
import { classifySmtpRejection } from '../../mail/reply-classifier/smtp-rejection';
import { suppressAutomatically } from '../suppressions';

export type OutcomeApplied =
  /** The recipient moved (or a further deferral was recorded). */
  | {
      readonly kind: 'applied';
      readonly from: EmailStatus;
      readonly to: EmailStatus;
      readonly email: EmailStatus;
      /** A hard bounce suppressed the address just now. */
      readonly suppressed: boolean;
    }
  /** Nothing changed: a duplicate, or a report after the recipient had ended. */
  | { readonly kind: 'ignored'; readonly reason: 'duplicate' | 'late'; readonly status: EmailStatus }
  /** The recipient is not recorded as handed off yet (see EARLY_REPORT_RETRIES). */
  | { readonly kind: 'early'; readonly status: EmailStatus }
  /** No such message, or not one of its recipients. */
  | { readonly kind: 'unmatched'; readonly reason: string };

export interface ApplyOptions {
  /**
   * Apply a report whose recipient is still `queued`/`processing`. The worker
   * commits `sent` milliseconds after the MTA's 250, so such a report usually
   * just overtook that commit; waiting a moment keeps the timeline in order
   * (processing, sent, delivered). Applied anyway after a few retries: then the
   * worker died after the 250, and the report is what tells its re-run that the
   * MTA already has the message.
   */
  readonly acceptBeforeSent: boolean;
  /**
   * False for the worker's own sender: a deferred recipient waits in the job table (a retry job
   * any node claims), not in the reporting node's MTA queue, so `emails.mta_node` is not set and
   * the hand-back sweep (src/modules/nodes) never resends it. Default true (Haraka's reports).
   */
  readonly reporterHoldsQueue?: boolean;
}

/**
 * Applies one MTA delivery report (issue 4, item 7) in one transaction: the
 * recipient's transition, the message's aggregate status and response, the
 * timeline entry and the webhook outbox row. Idempotent: a report applied
 * before changes nothing (terminal states ignore it; a repeated deferral is
 * recognised by its timeline entry, which names the MTA's attempt).
 */
export async function applyMtaOutcome(
  db: Kysely<Database>,
  o: MtaOutcomePayload,
  options: ApplyOptions,
  writes?: Pick<WriteBatcher, 'run'>,
): Promise<OutcomeApplied> {
  const write = <T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
    writes ? writes.run(work) : db.transaction().execute(work);
  return write((trx) => applyMtaOutcomeIn(trx, o, options));
}

/**
 * applyMtaOutcome inside the caller's transaction: the worker's job handler, and the
 * MTA's writer thread (mta.delivery-reports), which applies a report in the commit that records it
 * (src/mta/delivery-reports.ts) and leaves only early or unmatched ones to a job.
 */
export async function applyMtaOutcomeIn(
  trx: Kysely<Database>,
  o: MtaOutcomePayload,
  options: ApplyOptions,
): Promise<OutcomeApplied> {
  const response = formatSmtpResponse(o);
  const message = eventMessageFor(o, response);
  const reportedAt = Number.isNaN(Date.parse(o.at)) ? isoNow() : new Date(o.at).toISOString();
  const at = isoNow();
  const email = await repo.findEmail(trx, o.emailId);
  if (!email) return { kind: 'unmatched', reason: 'no such message' };
  const recipient = await repo.findRecipient(trx, email.id, o.recipient.toLowerCase());
  if (!recipient) return { kind: 'unmatched', reason: 'not a recipient of the message' };
  const step = recipientStep(recipient.status, o.outcome);
  if (step.kind === 'ignore') return { kind: 'ignored', reason: step.reason, status: recipient.status };
  const from = recipient.status;
  if ((from === 'queued' || from === 'processing') && !options.acceptBeforeSent) {
    return { kind: 'early', status: from };
  }
  const to = step.kind === 'advance' ? step.to : step.status;
  const event = { emailId: email.id, userId: email.user_id, recipient: recipient.address, at };
  if (step.kind === 'repeat' && (await repo.hasEvent(trx, { ...event, type: 'deferred', message }))) {
    return { kind: 'ignored', reason: 'duplicate', status: from };
  }
  const updated = await repo.updateRecipient(
    trx,
    recipient.id,
    from,
    { status: to, smtpResponse: response },
    at,
  );
  // SQLite serialises writers (BEGIN IMMEDIATE), so this is only reachable on a database that does not.
  if (!updated) throw new Error(`recipient ${recipient.id} changed while applying a report; retrying`);

  const state = aggregate(await repo.recipientStates(trx, email.id));
  const status = state?.status ?? email.status;
  await repo.updateEmail(
    trx,
    email.id,
    {
      status,
      smtpResponse: state?.smtpResponse ?? undefined,
      deliveredAt: to === 'delivered' ? reportedAt : undefined,
      // Issue 23: the reporting MTA holds a deferred recipient in its queue. A report that lands
      // before the worker recorded the hand-off (acceptBeforeSent) leaves this the only record of
      // the node holding the message, which the hand-back sweep looks it up by.
      mtaNode:
        (to === 'deferred' || to === 'sent') && o.node && options.reporterHoldsQueue !== false
          ? o.node
          : undefined,
    },
    at,
  );
  await recordEmailEvent(trx, { ...event, type: to, message, tls: o.tls ?? null, node: o.node ?? null });
  let suppressed = false;
  if (to === 'bounced') {
    // Spec: hard bounces add a suppression, whether refused during our delivery or reported later by DSN.
    const reading = classifySmtpRejection({ ...o, recipient: recipient.address });
    if (reading.kind === 'hard') {
      suppressed = await suppressAutomatically(trx, {
        mode: email.mode,
        userId: email.user_id,
        email: recipient.address,
        type: 'hard_bounce',
        reason: `${reading.reason}: ${response}`.slice(0, 500),
        sourceEmailId: email.id,
      });
      await requestAbuseEvaluation(trx, email.user_id);
    }
  }
  const hook = webhookEventFor(to);
  if (hook) {
    const failure = to === 'bounced' || to === 'failed';
    await recordOutbox(trx, {
      userId: email.user_id,
      mode: email.mode,
      event: hook,
      emailId: email.id,
      recipient: recipient.address,
      data: failure ? { reason: response, statusCode: o.smtpCode } : {},
      at,
    });
  }
  return { kind: 'applied', from, to, email: status, suppressed };
}

/** Early reports are retried this many times (runner backoff: about 1 s, then 2 s) before being applied anyway. */
export const EARLY_REPORT_RETRIES = 2;

export function logApplied(log: Logger, o: MtaOutcomePayload, r: OutcomeApplied): void {
  const base = { emailId: o.emailId, recipient: o.recipient, outcome: o.outcome, attempt: o.attempt };
  if (r.kind === 'applied') {
    const event = logEventFor(r.to) ?? 'email_status_changed';
    const detail = {
      ...base,
      from: r.from,
      to: r.to,
      emailStatus: r.email,
      smtpCode: o.smtpCode,
      host: o.host,
    };
    if (r.to === 'bounced' || r.to === 'failed') log.warn({ event, ...detail, response: o.response });
    else log.info({ event, ...detail });
    if (r.suppressed) log.warn({ event: 'hard_bounce', ...base, response: o.response, suppressed: true });
  } else if (r.kind === 'unmatched') {
    log.warn({ event: 'mta_outcome_unmatched', ...base, reason: r.reason });
  } else if (r.kind === 'ignored') {
    log.info({ event: 'mta_outcome_ignored', ...base, reason: r.reason, status: r.status });
  }
}

/**
 * `mta-outcome`: one delivery report from Haraka's hooks. A payload that does not parse is dropped (permanent).
 * With `writes` (the worker's group commit) reports applied at the same moment share one commit.
 */
export function createMtaOutcomeHandler(deps: {
  readonly db: Kysely<Database>;
  readonly writes?: Pick<WriteBatcher, 'run'> | undefined;
}): JobHandler {
  return async (job, ctx) => {
    const outcome = parseMtaOutcome(job.payload);
    if (!outcome) throw new PermanentJobError('mta-outcome payload does not parse');
    const log = ctx.logger.child({ module: 'emails' });
    const result = await applyMtaOutcome(
      deps.db,
      outcome,
      { acceptBeforeSent: job.attempts > EARLY_REPORT_RETRIES },
      deps.writes,
    );
    logApplied(log, outcome, result);
    if (result.kind === 'early') {
      throw new Error(`report for ${outcome.emailId} arrived before its hand-off was recorded; retrying`);
    }
  };
}
