import type { EmailStatus } from '../../db/schema';
import type { WebhookEventName } from '../webhooks';
import type { MtaOutcomeKind, MtaOutcomePayload } from './mta-outcome';

/**
 * The delivery status machine (spec: States and transitions), as pure functions:
 * what one MTA report does to one recipient, and what status the message then
 * shows. The repositories and jobs only carry out what these decide.
 */

/** Nothing moves a recipient out of these on its own; later MTA reports are ignored. */
const TERMINAL: ReadonlySet<EmailStatus> = new Set<EmailStatus>([
  'delivered',
  'bounced',
  'complained',
  'failed',
  'cancelled',
]);

export function isTerminal(status: EmailStatus): boolean {
  return TERMINAL.has(status);
}

/** What one MTA report does to one recipient. */
export type RecipientStep =
  /** The recipient moves from `from` to `to`: update it, record the event, write the webhook row. */
  | { readonly kind: 'advance'; readonly from: EmailStatus; readonly to: EmailStatus }
  /** A further deferral of a deferred recipient: the status stays, the attempt is a new timeline entry. */
  | { readonly kind: 'repeat'; readonly status: 'deferred' }
  /**
   * Nothing changes: the same terminal report again (`duplicate`), or a report
   * arriving after the recipient already ended (`late`, e.g. a deferral after delivery).
   */
  | { readonly kind: 'ignore'; readonly reason: 'duplicate' | 'late' };

/**
 * Per-recipient transitions on an MTA report:
 *
 * | from \ report            | delivered | deferred | bounced | failed  |
 * |--------------------------|-----------|----------|---------|---------|
 * | queued, processing, sent | delivered | deferred | bounced | failed  |
 * | deferred                 | delivered | (repeat) | bounced | failed  |
 * | any terminal status      | ignored   | ignored  | ignored | ignored |
 *
 * Terminal statuses never go back: the same report again is a `duplicate`, any
 * other a `late` one (a deferral that arrives after the delivery).
 *
 * `queued` and `processing` accept reports too: the MTA can only report on a
 * message it accepted, so a report that overtakes the worker's own `sent` commit
 * (or a worker that died after the MTA's 250) is still the truth about delivery.
 */
export function recipientStep(from: EmailStatus, report: MtaOutcomeKind): RecipientStep {
  if (isTerminal(from)) return { kind: 'ignore', reason: from === report ? 'duplicate' : 'late' };
  if (from === 'deferred' && report === 'deferred') return { kind: 'repeat', status: 'deferred' };
  return { kind: 'advance', from, to: report };
}

/** Reports that arrive by mail, possibly after delivery (issue 5): a DSN, a complaint. */
export type FeedbackKind = 'bounced' | 'complained';

/**
 * Per-recipient transitions on a bounce or complaint report. Unlike the MTA's
 * own reports these may follow `delivered`: a remote server can accept a
 * message and bounce it later, and a complaint always comes after delivery.
 *
 * | from \ report                         | bounced | complained |
 * |---------------------------------------|---------|------------|
 * | sent, deferred, delivered             | bounced | complained |
 * | bounced                               | (dup)   | complained |
 * | complained                            | ignored | (dup)      |
 * | queued, processing, failed, cancelled | ignored | ignored    |
 */
export function feedbackStep(from: EmailStatus, report: FeedbackKind): RecipientStep {
  if (from === report) return { kind: 'ignore', reason: 'duplicate' };
  const open = from === 'sent' || from === 'deferred' || from === 'delivered';
  if (open || (report === 'complained' && from === 'bounced')) return { kind: 'advance', from, to: report };
  return { kind: 'ignore', reason: 'late' };
}

/**
 * Severity, worst first, for the message's status (spec: aggregate rule, "the
 * worst outcome among recipients"). Every in-flight status ranks above every
 * terminal one, so a message never looks finished while a recipient is still on
 * its way: one bounce beside a deferral shows `deferred`, and `bounced` once the
 * deferral resolves. Among terminal outcomes: complained > bounced > failed >
 * delivered, so one bounce among four deliveries gives `bounced`. `cancelled`
 * only ever applies to all recipients at once.
 */
export const SEVERITY: readonly EmailStatus[] = [
  'deferred',
  'processing',
  'queued',
  'sent',
  'complained',
  'bounced',
  'failed',
  'delivered',
  'cancelled',
];

const RANK = new Map<EmailStatus, number>(SEVERITY.map((s, i) => [s, i]));

/** The worst status among recipients, or undefined for none. */
export function aggregateStatus(statuses: readonly EmailStatus[]): EmailStatus | undefined {
  let worst: EmailStatus | undefined;
  for (const s of statuses) {
    if (worst === undefined || (RANK.get(s) ?? 0) < (RANK.get(worst) ?? 0)) worst = s;
  }
  return worst;
}

export interface RecipientState {
  readonly status: EmailStatus;
  readonly smtpResponse: string | null;
  readonly updatedAt: string;
}

export interface MessageState {
  readonly status: EmailStatus;
  /**
   * The response of the most recently updated recipient whose status is the
   * message's; null when none has one (the caller keeps what the message had).
   */
  readonly smtpResponse: string | null;
}

/** The message's status and SMTP response, derived from its recipients. */
export function aggregate(recipients: readonly RecipientState[]): MessageState | undefined {
  const status = aggregateStatus(recipients.map((r) => r.status));
  if (status === undefined) return undefined;
  let pick: RecipientState | undefined;
  for (const r of recipients) {
    if (r.status !== status || r.smtpResponse === null) continue;
    if (pick === undefined || r.updatedAt > pick.updatedAt) pick = r;
  }
  return { status, smtpResponse: pick?.smtpResponse ?? null };
}

/** Where a send attempt starts from, by the message's status when the job runs. */
export type AttemptStart =
  /** Waiting for a worker: send it. */
  | 'fresh'
  /**
   * A previous attempt committed `processing` and never recorded how the hand-off
   * ended (the worker died or lost its lease): the MTA may or may not have it.
   */
  | 'interrupted'
  /** Already handed off, stopped, cancelled or finished: nothing to do. */
  | 'skip';

export function attemptStart(status: EmailStatus): AttemptStart {
  if (status === 'queued') return 'fresh';
  if (status === 'processing') return 'interrupted';
  return 'skip';
}

/** The webhook event a recipient's new status announces, if any (deferrals have none). */
export function webhookEventFor(status: EmailStatus): WebhookEventName | undefined {
  switch (status) {
    case 'sent':
      return 'email.sent';
    case 'delivered':
      return 'email.delivered';
    case 'bounced':
      return 'email.bounced';
    case 'failed':
      return 'email.failed';
    case 'complained':
      return 'email.complained';
    default:
      return undefined;
  }
}

/** The operations log event (spec: Log events) of an MTA report that moved a recipient. */
export function logEventFor(status: EmailStatus): string | undefined {
  switch (status) {
    case 'delivered':
      return 'email_delivered';
    case 'bounced':
      return 'email_failed_permanent';
    case 'failed':
      return 'email_failed_exhausted';
    case 'deferred':
      return 'email_deferred';
    default:
      return undefined;
  }
}

/**
 * The reply as one line that starts with its code (`550 5.1.1 no such user`),
 * whether the MTA passed the code separately or inside the text.
 */
export function formatSmtpResponse(
  o: Pick<MtaOutcomePayload, 'smtpCode' | 'enhancedStatus' | 'response'>,
): string {
  const text = o.response.replace(/[\r\n]+/g, ' ').trim();
  if (o.smtpCode === null || text.startsWith(String(o.smtpCode))) return text;
  const enhanced =
    o.enhancedStatus !== null && !text.includes(o.enhancedStatus) ? `${o.enhancedStatus} ` : '';
  return `${o.smtpCode} ${enhanced}${text}`.trim();
}

/** The timeline message of a report: deferrals carry the MTA's attempt number (spec: Email event). */
export function eventMessageFor(o: Pick<MtaOutcomePayload, 'outcome' | 'attempt'>, response: string): string {
  return o.outcome === 'deferred' ? `attempt ${o.attempt}: ${response}` : response;
}
