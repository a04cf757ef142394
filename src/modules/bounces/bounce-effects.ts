// What a report does to its message (issue 5, item 5): the decision is a pure table
// (`planEffect`); `applyReportEffects` carries it out inside the report's transaction.
import type { Kysely } from 'kysely';
import type { Database, EmailStatus, SuppressionType } from '../../db/schema';
import { requestAbuseEvaluation } from '../abuse';
import type { FeedbackKind } from '../delivery';
import { aggregate, feedbackStep } from '../delivery';
import type { EmailRow } from '../emails';
import * as delivery from '../delivery';
import { recordEmailEvent } from '../emails';
import { recordOutbox } from '../webhooks';
import { suppressAutomatically } from '../suppressions';
import type { BounceResult } from '../../mail/reply-classifier/bounce-result';
import type { MappedResult } from './intake-match';
import { isPermanent } from './intake-match';

export type BounceLogEvent = 'hard_bounce' | 'soft_bounce' | 'complaint' | 'auto_reply' | 'delivery_report';

export interface EffectPlan {
  /** The recipient's transition (through `feedbackStep`), or none: the report is only recorded. */
  readonly transition: FeedbackKind | null;
  /** Timeline entry when there is no transition (a transition records its own status). */
  readonly eventType: 'soft_bounce' | 'auto_reply' | 'delivery_report' | null;
  readonly suppression: SuppressionType | null;
  readonly logEvent: BounceLogEvent;
}

/**
 * | kind                    | recipient  | timeline          | suppression   | log             |
 * |-------------------------|------------|-------------------|---------------|-----------------|
 * | hard                    | bounced    | bounced           | hard_bounce   | hard_bounce     |
 * | soft, permanent (5.x.x) | bounced    | bounced           | none          | soft_bounce     |
 * | soft, transient         | unchanged  | soft_bounce       | none          | soft_bounce     |
 * | complaint               | complained | complained        | complaint     | complaint       |
 * | auto_reply              | unchanged  | auto_reply        | none          | auto_reply      |
 * | delivered               | unchanged  | delivery_report   | none          | delivery_report |
 *
 * Soft bounces never suppress (docs/bounces.md, "Effects"): their reasons are
 * a full or disabled mailbox that comes back, or a verdict on the sender or content,
 * which suppressing the recipient would not fix.
 */
export function planEffect(r: Pick<BounceResult, 'kind' | 'status' | 'smtpCode'>): EffectPlan {
  switch (r.kind) {
    case 'hard':
      return { transition: 'bounced', eventType: null, suppression: 'hard_bounce', logEvent: 'hard_bounce' };
    case 'soft':
      return isPermanent(r)
        ? { transition: 'bounced', eventType: null, suppression: null, logEvent: 'soft_bounce' }
        : { transition: null, eventType: 'soft_bounce', suppression: null, logEvent: 'soft_bounce' };
    case 'complaint':
      return { transition: 'complained', eventType: null, suppression: 'complaint', logEvent: 'complaint' };
    case 'auto_reply':
      return { transition: null, eventType: 'auto_reply', suppression: null, logEvent: 'auto_reply' };
    case 'delivered':
      return {
        transition: null,
        eventType: 'delivery_report',
        suppression: null,
        logEvent: 'delivery_report',
      };
  }
}

/**
 * The report's reading as one line, like the MTA's own replies (`550 5.1.1 no such
 * user`): the `reason` of `email.bounced`, the recipient's `smtpResponse` and the
 * timeline message. Falls back to the classifier's reason name when the report gives no text.
 */
export function reportReason(r: Pick<BounceResult, 'smtpCode' | 'status' | 'diagnostic' | 'reason'>): string {
  const text = (r.diagnostic ?? '').replace(/\s+/g, ' ').trim() || r.reason;
  const code = r.smtpCode !== null && !text.startsWith(String(r.smtpCode)) ? `${r.smtpCode} ` : '';
  const status = r.status !== null && !text.includes(r.status) ? `${r.status} ` : '';
  return `${code}${status}${text}`.slice(0, 1000);
}

export interface AppliedEffect {
  readonly recipient: string;
  readonly result: BounceResult;
  readonly plan: EffectPlan;
  /** The status moved, or the timeline entry was written; false for a report seen before. */
  readonly applied: boolean;
  readonly from: EmailStatus | null;
  readonly to: EmailStatus | null;
  readonly suppressed: boolean;
}

async function applyOne(
  trx: Kysely<Database>,
  email: EmailRow,
  m: MappedResult,
  at: string,
): Promise<AppliedEffect> {
  const plan = planEffect(m.result);
  const reason = reportReason(m.result);
  const base = { emailId: email.id, userId: email.user_id, recipient: m.recipient, at };
  const row = await delivery.findRecipient(trx, email.id, m.recipient);
  let applied = false;
  let to: EmailStatus | null = null;
  if (row && plan.transition) {
    const step = feedbackStep(row.status, plan.transition);
    if (step.kind === 'advance') {
      const moved = await delivery.updateRecipient(
        trx,
        row.id,
        row.status,
        { status: step.to, smtpResponse: reason },
        at,
      );
      if (!moved) throw new Error(`recipient ${row.id} changed while applying a report; retrying`);
      await recordEmailEvent(trx, { ...base, type: step.to, message: reason });
      await recordOutbox(trx, {
        userId: email.user_id,
        mode: email.mode,
        event: step.to === 'bounced' ? 'email.bounced' : 'email.complained',
        emailId: email.id,
        recipient: m.recipient,
        data: step.to === 'bounced' ? { reason, statusCode: m.result.smtpCode } : {},
        at,
      });
      applied = true;
      to = step.to;
    }
  } else if (row && plan.eventType) {
    // A copy of a report that arrived with other bytes (another Received line) finds its entry.
    const entry = { ...base, type: plan.eventType, message: reason };
    if (!(await delivery.hasEvent(trx, entry))) {
      await recordEmailEvent(trx, entry);
      applied = true;
    }
  }
  const suppressed =
    plan.suppression !== null &&
    (await suppressAutomatically(trx, {
      mode: email.mode,
      userId: email.user_id,
      email: m.recipient,
      type: plan.suppression,
      reason,
      sourceEmailId: email.id,
    }));
  return {
    recipient: m.recipient,
    result: m.result,
    plan,
    applied,
    from: row?.status ?? null,
    to,
    suppressed,
  };
}

/**
 * Applies a report's readings to its message, in the caller's transaction: per
 * recipient the transition, timeline entry, webhook outbox row and suppression, then
 * the message's aggregate status, then an abuse evaluation when a hard bounce or a
 * complaint changed anything (both feed the bounce and complaint rates).
 */
export async function applyReportEffects(
  trx: Kysely<Database>,
  email: EmailRow,
  mapped: readonly MappedResult[],
  at: string,
): Promise<AppliedEffect[]> {
  const effects: AppliedEffect[] = [];
  for (const m of mapped) effects.push(await applyOne(trx, email, m, at));
  if (effects.some((e) => e.to !== null)) {
    const state = aggregate(await delivery.recipientStates(trx, email.id));
    await delivery.updateEmail(
      trx,
      email.id,
      { status: state?.status ?? email.status, smtpResponse: state?.smtpResponse ?? undefined },
      at,
    );
  }
  const weighs = effects.some(
    (e) => (e.result.kind === 'hard' || e.result.kind === 'complaint') && (e.applied || e.suppressed),
  );
  if (weighs) await requestAbuseEvaluation(trx, email.user_id);
  return effects;
}
