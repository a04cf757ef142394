// RFC 3463 enhanced status codes and RFC 5321 §4.2 reply codes: finding them in text, and what
// each code says about the failure.
import type { BounceReason } from './bounce-result';

// class "." subject "." detail (RFC 3463 §2); subject and detail are 1-3 digits.
const STATUS_IN_TEXT = /(^|[^0-9.])([245])\.(\d{1,3})\.(\d{1,3})(?![0-9]|\.\d)/g;

/**
 * The enhanced status code stated in `text`, or null. A code right after a reply code of the same
 * class ("550 5.1.1") is preferred over a code elsewhere; IP addresses and versions are skipped.
 */
export function findEnhancedStatus(text: string): string | null {
  let first: string | null = null;
  STATUS_IN_TEXT.lastIndex = 0;
  for (let m = STATUS_IN_TEXT.exec(text); m !== null; m = STATUS_IN_TEXT.exec(text)) {
    const [, , cls, subject, detail] = m;
    if (cls === undefined || subject === undefined || detail === undefined) continue;
    if (Number(subject) > 7) continue;
    const code = `${cls}.${Number(subject)}.${Number(detail)}`;
    const before = text.slice(Math.max(0, m.index - 6), m.index + (m[1]?.length ?? 0));
    if (new RegExp(`(^|\\D)${cls}\\d\\d[ -]?['"]?\\s*#?$`).test(before)) return code;
    first ??= code;
  }
  return first;
}

// A reply code at the start of a reply line, or after the usual introductions of a quoted reply.
const REPLY_IN_TEXT = /(?:^|[\s:;([<>"'=#-])([245][0-5][0-9])(?=[ ,;-]|$|\])/gm;

/** The first SMTP reply code of a failure or success reply quoted in `text`, or null. */
export function findReplyCode(text: string): number | null {
  REPLY_IN_TEXT.lastIndex = 0;
  for (let m = REPLY_IN_TEXT.exec(text); m !== null; m = REPLY_IN_TEXT.exec(text)) {
    const code = Number(m[1]);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
    // "552 bytes", "421 seconds" and the like are sizes and durations, not replies.
    if (/^ (?:bytes|seconds|minutes|hours|days|kb|mb)\b/i.test(after)) continue;
    return code;
  }
  return null;
}

/** RFC 3463 §3 detail codes whose meaning is unambiguous; keys are "class.subject.detail". */
const STATUS_REASONS: Readonly<Record<string, BounceReason>> = {
  '4.1.6': 'hasmoved',
  '4.1.7': 'rejected',
  '4.1.8': 'rejected',
  '4.1.9': 'systemerror',
  '4.2.1': 'blocked',
  '4.2.2': 'mailboxfull',
  '4.2.3': 'exceedlimit',
  '4.2.4': 'filtered',
  '4.3.1': 'systemfull',
  '4.3.2': 'notaccept',
  '4.3.3': 'systemerror',
  '4.3.5': 'systemerror',
  '4.4.1': 'expired',
  '4.4.2': 'networkerror',
  '4.4.3': 'systemerror',
  '4.4.4': 'networkerror',
  '4.4.5': 'systemfull',
  '4.4.6': 'networkerror',
  '4.4.7': 'expired',
  '4.4.8': 'networkerror',
  '4.5.3': 'systemerror',
  '4.5.5': 'systemerror',
  '4.6.0': 'contenterror',
  '4.6.2': 'contenterror',
  '4.6.5': 'contenterror',
  '4.7.1': 'blocked',
  '4.7.2': 'blocked',
  '4.7.5': 'securityerror',
  '4.7.6': 'securityerror',
  '4.7.7': 'securityerror',
  '4.7.12': 'securityerror',
  '4.7.15': 'securityerror',
  '4.7.16': 'mesgtoobig',
  '4.7.24': 'authfailure',
  '4.7.25': 'requireptr',
  '4.7.26': 'authfailure',
  '5.1.0': 'userunknown',
  '5.1.1': 'userunknown',
  '5.1.2': 'hostunknown',
  '5.1.3': 'userunknown',
  '5.1.4': 'filtered',
  '5.1.6': 'hasmoved',
  '5.1.7': 'rejected',
  '5.1.8': 'rejected',
  '5.1.9': 'systemerror',
  '5.1.10': 'notaccept', // RFC 7505 §4.2: recipient address has a null MX
  '5.2.0': 'filtered',
  '5.2.1': 'filtered',
  '5.2.2': 'mailboxfull',
  '5.2.3': 'exceedlimit',
  '5.2.4': 'filtered',
  '5.3.0': 'systemerror',
  '5.3.1': 'systemfull',
  '5.3.2': 'notaccept',
  '5.3.3': 'systemerror',
  '5.3.4': 'mesgtoobig',
  '5.3.5': 'systemerror',
  '5.4.0': 'networkerror',
  '5.4.3': 'systemerror',
  '5.4.4': 'hostunknown',
  '5.5.2': 'syntaxerror',
  '5.5.3': 'toomanyconn',
  '5.5.4': 'systemerror',
  '5.5.5': 'systemerror',
  '5.5.6': 'syntaxerror',
  '5.6.0': 'contenterror',
  '5.6.1': 'contenterror',
  '5.6.2': 'contenterror',
  '5.6.3': 'contenterror',
  '5.6.5': 'contenterror',
  '5.6.6': 'contenterror',
  '5.6.7': 'contenterror',
  '5.6.8': 'contenterror',
  '5.6.9': 'contenterror',
  '5.7.13': 'suspend', // RFC 3463 §3.8: user account disabled
  '5.7.16': 'mesgtoobig',
  '5.7.17': 'hasmoved', // RFC 7293: mailbox owner has changed
  '5.7.18': 'hasmoved',
  '5.7.20': 'authfailure', // RFC 7372: DKIM, SPF, reverse DNS and multiple-check failures
  '5.7.21': 'authfailure',
  '5.7.22': 'authfailure',
  '5.7.23': 'authfailure',
  '5.7.24': 'authfailure',
  '5.7.25': 'requireptr',
  '5.7.26': 'authfailure',
  '5.7.27': 'rejected', // RFC 7505 §4.2: the *sender* address has a null MX (our domain)
  '5.7.28': 'spamdetected', // RFC 8689-era registry: mail flood
  '5.7.29': 'authfailure', // ARC validation failure
};

/** What an enhanced status code alone says, or null when it says nothing specific. */
export function reasonOfStatus(status: string | null): BounceReason | null {
  if (status === null) return null;
  const known = STATUS_REASONS[status];
  if (known !== undefined) return known;
  // RFC 3463 §3.8 and the registry's security details 5.7.0-5.7.11, 5.7.14, 5.7.15, 5.7.19.
  const m = /^5\.7\.(\d+)$/.exec(status);
  const detail = m === null ? -1 : Number(m[1]);
  return (detail >= 0 && detail <= 11) || detail === 14 || detail === 15 || detail === 19
    ? 'securityerror'
    : null;
}

/** True for a code that only gives the class (X.0.0, RFC 3463 §3.1). */
export function isClassOnly(status: string | null): boolean {
  return status === null || /^[245]\.0\.0$/.test(status);
}

/**
 * Chooses between the Status field of a DSN and the code inside its Diagnostic-Code when they
 * differ. The field is the reporting MTA's summary; the remote server's own code is more specific
 * when the field only gives a class (X.0.0, RFC 3463 §3.1) or is one of the vague codes the RFC
 * asks senders to avoid when the real cause is known (X.4.7 "delivery time expired", §3.5).
 */
export function preferStatus(
  field: string | null,
  inMessage: string | null,
  replyCode: number | null,
): string | null {
  if (field === null) return inMessage;
  if (inMessage === null || field === inMessage) return field;
  const reply = replyCode === null ? null : String(replyCode)[0];
  if (field[0] !== inMessage[0] && reply !== null) {
    // Different classes: believe the one the reply code agrees with (RFC 3463 §2).
    if (reply === field[0]) return field;
    if (reply === inMessage[0]) return inMessage;
  }
  const classOnly = (s: string): boolean => /^\d\.0\.0$/.test(s);
  const vague = (s: string): boolean => /^\d\.(?:\d\.0|0\.\d+)$/.test(s);
  if (classOnly(field)) return classOnly(inMessage) ? field : inMessage;
  if (vague(field) && !vague(inMessage)) return inMessage;
  if (classOnly(inMessage)) return field;
  if (field === '4.4.7' || field === '4.7.0' || field.startsWith('5.3.') || /^\d\.5\.[1245]$/.test(field))
    return inMessage;
  if (field === '5.1.1') return vague(inMessage) || inMessage.startsWith('5.5.') ? field : inMessage;
  if (field === '5.1.3' && inMessage.startsWith('5.7.')) return inMessage;
  return field;
}
