// The classifier: raw report bytes in, one reading per affected recipient out. Pure: no I/O, no
// clock, no knowledge of our own addresses, so the same report always reads the same.
import type { BounceResult, DeliveryRecord } from '../../mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import { findFeedbackReport, parseFeedbackReport } from './arf-parser';
import { isAutoReply } from './auto-reply';
import { decideReason, kindOfReason } from '../../mail/reply-classifier/classify-reason';
import { looksLikeDeliveryStatus, parseDeliveryStatus } from './dsn-parser';
import { addressKey, headerAddresses } from './email-address';
import {
  findEnhancedStatus,
  findReplyCode,
  preferStatus,
  reasonOfStatus,
} from '../../mail/reply-classifier/enhanced-status';
import { allFields, decodeHeaderValue, firstField } from './header-fields';
import type { MimePart } from './mime-message';
import { leafParts, parseMessages } from './mime-message';
import type { OriginalMessage } from './original-message';
import { findOriginalMessage } from './original-message';
import type { TextContext } from './plain-text-formats';
import { oneLine, parsePlainTextReport, recipientBlocks } from './plain-text-formats';
import { humanReadableText } from './report-text';
import { findSesNotification, parseSesNotification } from './ses-notification';
import { normaliseDiagnostic, settledReason } from '../../mail/reply-classifier/status-patterns';
import { findSmtpCommand } from '../../mail/reply-classifier/smtp-command';

export interface ReportReading {
  readonly results: BounceResult[];
  /** Message-ID of the returned original message, when the report quotes it. */
  readonly originalMessageId: string | null;
  /** Recipients the returned original message was addressed to, when quoted. */
  readonly originalRecipients: readonly string[];
}

/** One result per affected recipient of a DSN, ARF report, auto-reply or non-standard bounce. */
export function classifyReport(raw: Buffer | string): BounceResult[] {
  return readReport(raw).results;
}

/** classifyReport plus what the report says about the original message (for matching it). */
export function readReport(raw: Buffer | string): ReportReading {
  // An mbox of several reports reads as all of their recipients.
  const messages = parseMessages(raw);
  const originals = messages.map((m) => findOriginalMessage(m));
  const records = messages.flatMap((m, i) => readRecords(m, originals[i] ?? null, 0));
  const original = originals[0] ?? null;
  return {
    results: records.map(toResult),
    originalMessageId: original?.messageId ?? null,
    originalRecipients: original?.recipients ?? [],
  };
}

function toResult(rec: DeliveryRecord): BounceResult {
  const reason = decideReason(rec);
  const kind = kindOfReason(reason, rec);
  const action =
    rec.action ?? (kind === 'auto_reply' ? 'auto-reply' : kind === 'complaint' ? 'complaint' : null);
  return {
    recipient: rec.recipient,
    status: rec.status,
    smtpCode: rec.smtpCode,
    action,
    diagnostic: rec.diagnostic,
    kind,
    reason,
  };
}

function textContext(root: MimePart, original: OriginalMessage | null): TextContext {
  const own = ['from', 'to', 'reply-to', 'return-path', 'sender'].flatMap((n) =>
    headerAddresses(firstField(root.headers, n)),
  );
  const notRecipients = new Set([...own, ...(original?.senders ?? [])].map(addressKey));
  const failedRecipients = allFields(root.headers, 'x-failed-recipients').flatMap((v) => headerAddresses(v));
  return { notRecipients, failedRecipients };
}

const BOUNCE_SENDER =
  /\b(?:mailer-daemon|mail-daemon|post_?master|mail delivery (?:subsystem|system)|mail administrator|mailer)\b/i;
const BOUNCE_SUBJECT =
  /\b(?:undeliver|undelivered|delivery (?:status|failure|failed|notification|problem)|returned mail|mail delivery failed|failure notice|non[- ]?delivery|delivery has failed|could not be delivered|mail system error|rejected|returned to sender|error sending|failed delivery|delivery report)/i;

/** Whether a message without a machine-readable part reads as a delivery report at all. */
function looksLikeBounce(root: MimePart, text: string, ctx: TextContext): boolean {
  if (ctx.failedRecipients.length > 0 || root.type === 'multipart/report') return true;
  const from = firstField(root.headers, 'from') ?? '';
  const subject = decodeHeaderValue(firstField(root.headers, 'subject') ?? '');
  if (BOUNCE_SENDER.test(from) || BOUNCE_SUBJECT.test(subject)) return true;
  return (
    /\b(?:could not be delivered|was not delivered|undeliverable|delivery (?:to the following|has failed)|permanent (?:error|failure)|following (?:address|recipient)s?)/i.test(
      text,
    ) ||
    // A quoted SMTP failure reply: "550 5.1.1 ...", "554 ... rejected". `[ \t]*`, not `\s*`: a
    // multiline `^\s*` re-crossed every blank line from each line start (issue 17 finding 2).
    /^[ \t]*[45]\d\d[ -](?:[45]\.\d{1,3}\.\d{1,3}\b|.*\b(?:user|mailbox|recipient|address|rejected|denied|unknown|refused|blocked|not taken)\b)/im.test(
      text,
    )
  );
}

/** A warning that delivery is still being retried (RFC 3464 §2.3.3 Action: delayed). */
function isDelayNotice(root: MimePart, text: string): boolean {
  const subject = decodeHeaderValue(firstField(root.headers, 'subject') ?? '');
  return (
    /\bdelay(?:ed)?\b|\bwarning: message\b|\bstill (?:being )?retried\b/i.test(subject) ||
    /\b(?:has been delayed|this is a warning message only|has not yet been delivered|delivery attempts will continue|will be retried|temporary failure report|delayed for more than|still trying to deliver)/i.test(
      text,
    )
  );
}

function readRecords(root: MimePart, original: OriginalMessage | null, depth: number): DeliveryRecord[] {
  const ctx = textContext(root, original);
  const parts = leafParts(root);

  const feedback = findFeedbackReport(root);
  if (feedback !== null) return parseFeedbackReport(feedback, original?.recipients ?? []);

  const firstText = parts.find((p) => p.type.startsWith('text/') || p.type === 'application/json');
  const ses = firstText === undefined ? null : findSesNotification(firstText.text);
  if (ses !== null) {
    const records = parseSesNotification(ses);
    if (records.length > 0) return records;
  }

  const human = humanReadableText(root);
  const dsnParts = parts.filter(
    (p) => p.type === 'message/delivery-status' || p.type === 'message/global-delivery-status',
  );
  let dsn = dsnParts.flatMap((p) => parseDeliveryStatus(p.text));
  if (dsn.length === 0) {
    const texts = parts.filter((p) => p.type === 'text/plain').map((p) => p.text);
    const withFields = texts.find((t) => looksLikeDeliveryStatus(t));
    if (withFields !== undefined) dsn = parseDeliveryStatus(withFields);
  }
  if (dsn.length > 0) return enrichFromText(dsn, human, ctx);

  if (isAutoReply(root.headers)) {
    const rec = emptyRecord(headerAddresses(firstField(root.headers, 'from'))[0] ?? null);
    rec.reason = 'vacation';
    rec.action = 'auto-reply';
    rec.diagnostic = decodeHeaderValue(firstField(root.headers, 'subject') ?? '') || null;
    return [rec];
  }

  if (!looksLikeBounce(root, human, ctx)) return [];
  const delayed = isDelayNotice(root, human);
  const plain = parsePlainTextReport(human, ctx).map((r) =>
    delayed && r.action === null ? { ...r, action: 'delayed' } : r,
  );
  if (plain.length > 0) return plain;
  // A forwarded report: the real one is the attached message.
  if (depth < 2) {
    for (const p of parts) {
      const inner = p.type === 'message/rfc822' ? p.children[0] : undefined;
      const nested = inner === undefined ? [] : readRecords(inner, findOriginalMessage(inner), depth + 1);
      if (nested.some((r) => r.recipient !== null)) return nested;
    }
  }
  // A bounce that names nobody: fall back to the recipients of the returned message.
  const recipient = ctx.failedRecipients[0] ?? original?.recipients[0] ?? null;
  const rec = emptyRecord(recipient);
  const diag = oneLine(human);
  rec.diagnostic = diag === '' ? null : diag;
  rec.status = findEnhancedStatus(diag);
  rec.smtpCode = findReplyCode(diag);
  rec.command = findSmtpCommand(human);
  return [rec];
}

/**
 * RFC 3464 fields are often thinner than the human-readable part (Postfix writes "in reply to
 * RCPT TO command" only there; some MTAs leave Diagnostic-Code out). Fill what is missing from the
 * text about the same recipient.
 */
function enrichFromText(records: DeliveryRecord[], human: string, ctx: TextContext): DeliveryRecord[] {
  const blocks = new Map(
    recipientBlocks(human, { notRecipients: ctx.notRecipients, failedRecipients: [] }).map((b) => [
      addressKey(b.recipient),
      b.text,
    ]),
  );
  return records.map((rec) => {
    const block = rec.recipient === null ? undefined : blocks.get(addressKey(rec.recipient));
    const text = block ?? (records.length === 1 && blocks.size <= 1 ? [...blocks.values()][0] : undefined);
    if (text === undefined) return rec;
    const enriched = { ...rec };
    const diag = oneLine(text);
    enriched.command ??= findSmtpCommand(text);
    // The reporting system's own explanation (e.g. Google's "the address couldn't be found"),
    // unless the remote server's specific status code says otherwise.
    const byStatus = reasonOfStatus(rec.status);
    const settled = settledReason(normaliseDiagnostic(text));
    if (settled !== null && (byStatus === null || byStatus === settled)) enriched.reason ??= settled;
    enriched.smtpCode ??= findReplyCode(diag);
    if (enriched.diagnostic === null) enriched.diagnostic = diag === '' ? null : diag;
    // Only a reply quoted in the text can refine a vague Status field; prose cannot.
    if (enriched.smtpCode !== null)
      enriched.status = preferStatus(rec.status, findEnhancedStatus(diag), enriched.smtpCode);
    return enriched;
  });
}
