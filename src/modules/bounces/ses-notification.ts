// Amazon SES event notifications (bounce, complaint, delivery) delivered by email through SNS:
// a JSON document in the body instead of an RFC 3464 report.
import type { DeliveryRecord } from '../../mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import { extractAddress } from './email-address';
import { findEnhancedStatus, findReplyCode } from '../../mail/reply-classifier/enhanced-status';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);

/** The notification object in a body, or null. Sendmail's 990-byte line wraps ("!\n ") are undone. */
export function findSesNotification(body: string): Json | null {
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start || !/"(?:notificationType|eventType)"/.test(body)) return null;
  const json = body
    .slice(start, end + 1)
    .replace(/!\n /g, '')
    .replace(/\n/g, ' ');
  try {
    const parsed: unknown = JSON.parse(json);
    if (!isObject(parsed)) return null;
    // SNS wraps the SES event in "Message" when raw delivery is off.
    const inner = str(parsed.Message);
    if (inner !== null) {
      const nested: unknown = JSON.parse(inner);
      return isObject(nested) ? nested : null;
    }
    return parsed;
  } catch {
    return null;
  }
}

/** One record per recipient of the notification. */
export function parseSesNotification(n: Json): DeliveryRecord[] {
  const type = (str(n.notificationType) ?? str(n.eventType) ?? '').toLowerCase();
  if (type === 'bounce' && isObject(n.bounce)) {
    const bounce = n.bounce;
    const permanent = str(bounce.bounceType) === 'Permanent';
    const subType = str(bounce.bounceSubType) ?? '';
    return list(bounce.bouncedRecipients)
      .filter(isObject)
      .map((r) => {
        const rec = emptyRecord(extractAddress(str(r.emailAddress) ?? ''));
        const diag = str(r.diagnosticCode);
        rec.diagnostic = diag ?? (subType === '' ? null : subType);
        rec.diagnosticType = diag !== null && /^smtp;/i.test(diag) ? 'SMTP' : null;
        rec.diagnostic = rec.diagnostic?.replace(/^smtp;\s*/i, '') ?? null;
        rec.status = findEnhancedStatus(str(r.status) ?? '') ?? findEnhancedStatus(rec.diagnostic ?? '');
        rec.smtpCode = findReplyCode(rec.diagnostic ?? '');
        rec.action = str(r.action) ?? (permanent ? 'failed' : 'delayed');
        // SES's own sub-types where the remote reply is absent.
        if (diag === null && subType === 'MailboxFull') rec.reason = 'mailboxfull';
        if (diag === null && subType === 'MessageTooLarge') rec.reason = 'mesgtoobig';
        if (diag === null && (subType === 'ContentRejected' || subType === 'AttachmentRejected'))
          rec.reason = 'filtered';
        return rec;
      });
  }
  if (type === 'complaint' && isObject(n.complaint)) {
    const c = n.complaint;
    return list(c.complainedRecipients)
      .filter(isObject)
      .map((r) => {
        const rec = emptyRecord(extractAddress(str(r.emailAddress) ?? ''));
        rec.action = 'complaint';
        rec.reason = 'feedback';
        rec.diagnostic = str(c.complaintFeedbackType) ?? 'abuse';
        return rec;
      });
  }
  if (type === 'delivery' && isObject(n.delivery)) {
    const d = n.delivery;
    const response = str(d.smtpResponse);
    return list(d.recipients).map((r) => {
      const rec = emptyRecord(extractAddress(str(r) ?? ''));
      rec.action = 'delivered';
      rec.reason = 'delivered';
      rec.diagnostic = response;
      rec.diagnosticType = 'SMTP';
      rec.status = findEnhancedStatus(response ?? '');
      rec.smtpCode = findReplyCode(response ?? '');
      return rec;
    });
  }
  return [];
}
