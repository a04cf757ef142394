// RFC 3464 delivery status notifications: the message/delivery-status body (§2.2 per-message
// fields, §2.3 per-recipient fields), also when an MTA pasted it into a text part.
import type { DeliveryRecord } from '../../mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import { findEnhancedStatus, findReplyCode, preferStatus } from '../../mail/reply-classifier/enhanced-status';
import { extractAddress } from './email-address';
import { findSmtpCommand } from '../../mail/reply-classifier/smtp-command';

interface Field {
  readonly name: string;
  readonly value: string;
}

// Value trimmed after the match, so no blank can go to two quantifiers (issue 17 finding 2).
const FIELD = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*:(.*)$/s;
const RECIPIENT_FIELDS = new Set(['final-recipient', 'original-recipient', 'x-actual-recipient']);
const DSN_FIELDS = new Set([
  ...RECIPIENT_FIELDS,
  'action',
  'status',
  'diagnostic-code',
  'remote-mta',
  'last-attempt-date',
  'will-retry-until',
  'final-log-id',
  'reporting-mta',
  'arrival-date',
  'received-from-mta',
  'original-envelope-id',
  'dsn-gateway',
  'x-postfix-queue-id',
  'x-postfix-sender',
]);

/** Field lines, unfolded; a blank line is kept as a group separator (name ''). */
function readFields(text: string): Field[] {
  const out: { name: string; value: string }[] = [];
  let open = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^> ?/, '');
    if (line.trim() === '') {
      out.push({ name: '', value: '' });
      open = false;
      continue;
    }
    const last = out[out.length - 1];
    if (/^[ \t]/.test(line) && open && last !== undefined) {
      last.value = `${last.value} ${line.trim()}`;
      continue;
    }
    const m = FIELD.exec(line);
    const name = m?.[1]?.toLowerCase();
    if (name !== undefined && DSN_FIELDS.has(name)) {
      out.push({ name, value: (m?.[2] ?? '').trim() });
      open = true;
    } else {
      open = false;
    }
  }
  return out;
}

/** Splits "type; value" (RFC 3464 §2.3.2, §2.3.6). */
function typed(value: string): { type: string | null; text: string } {
  const m = /^([A-Za-z0-9-]+)\s*;([\s\S]*)$/.exec(value);
  if (m === null) return { type: null, text: value.trim() };
  return { type: (m[1] ?? '').toUpperCase(), text: (m[2] ?? '').trim() };
}

/** True when the text holds at least one per-recipient DSN field group. */
export function looksLikeDeliveryStatus(text: string): boolean {
  return (
    /^(?:> ?)?(?:final|original)-recipient\s*:/im.test(text) && /^(?:> ?)?(?:action|status)\s*:/im.test(text)
  );
}

/** One record per recipient group of a delivery-status body. */
export function parseDeliveryStatus(text: string): DeliveryRecord[] {
  const groups: Field[][] = [[]];
  for (const f of readFields(text)) {
    const current = groups[groups.length - 1] ?? [];
    if (f.name === '') {
      if (current.length > 0) groups.push([]);
      continue;
    }
    // A second Final-Recipient in one group starts a new recipient (groups without blank lines).
    if (f.name === 'final-recipient' && current.some((c) => c.name === 'final-recipient')) {
      groups.push([f]);
      continue;
    }
    current.push(f);
  }

  const records: DeliveryRecord[] = [];
  let pending: Field[] = [];
  for (const group of groups) {
    if (!group.some((f) => RECIPIENT_FIELDS.has(f.name))) {
      // Per-message fields, or per-recipient fields an MTA put before a blank line.
      pending = group.some((f) => f.name === 'status' || f.name === 'action') ? group : [];
      continue;
    }
    const rec = recordOf([...pending, ...group]);
    pending = [];
    if (rec !== null) records.push(rec);
  }
  return records;
}

function recordOf(fields: Field[]): DeliveryRecord | null {
  const get = (name: string): string | null => fields.find((f) => f.name === name)?.value ?? null;
  const final = get('final-recipient');
  const original = get('original-recipient');
  const recipient =
    (final !== null ? extractAddress(typed(final).text) : null) ??
    (original !== null ? extractAddress(typed(original).text) : null) ??
    extractAddress(typed(get('x-actual-recipient') ?? '').text);
  const rec = emptyRecord(recipient);

  const action = get('action');
  rec.action = action === null ? null : (/^[A-Za-z]+/.exec(action)?.[0].toLowerCase() ?? null);
  const diag = get('diagnostic-code');
  if (diag !== null) {
    const { type, text } = typed(diag);
    // Postfix labels the replies it relays "X-Postfix"; they are SMTP replies all the same.
    rec.diagnosticType = type === 'X-POSTFIX' ? 'SMTP' : type;
    rec.diagnostic = text === '' ? null : text;
  }
  rec.smtpCode = rec.diagnostic === null ? null : findReplyCode(rec.diagnostic);
  const stated = findEnhancedStatus(get('status') ?? '');
  rec.status = preferStatus(
    stated,
    rec.diagnostic === null ? null : findEnhancedStatus(rec.diagnostic),
    rec.smtpCode,
  );
  rec.command = rec.diagnostic === null ? null : findSmtpCommand(rec.diagnostic);
  return rec.recipient === null && rec.status === null && rec.diagnostic === null ? null : rec;
}
