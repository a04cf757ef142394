// The classifier's vocabulary: what one affected recipient of a report reads as.

/**
 * `hard`: the address itself is permanently bad (suppress it). `soft`: delivery failed, but not
 * because the address is bad for good (full mailbox, blocked, filtered, expired ...).
 * `complaint`: an RFC 5965 feedback report. `auto_reply`: an RFC 3834 automatic response.
 * `delivered`: a success notice (RFC 3464 Action: delivered / relayed / expanded).
 */
export type BounceKind = 'hard' | 'soft' | 'complaint' | 'auto_reply' | 'delivered';

/** Fine-grained reasons; the names follow the vocabulary common to bounce parsers (Sisimai). */
export const BOUNCE_REASONS = [
  'userunknown',
  'hostunknown',
  'hasmoved',
  'notaccept',
  'mailboxfull',
  'mesgtoobig',
  'exceedlimit',
  'suspend',
  'norelaying',
  'authfailure',
  'filtered',
  'requireptr',
  'notcompliantrfc',
  'badreputation',
  'contenterror',
  'rejected',
  'spamdetected',
  'virusdetected',
  'policyviolation',
  'speeding',
  'toomanyconn',
  'blocked',
  'securityerror',
  'systemerror',
  'systemfull',
  'networkerror',
  'expired',
  'mailererror',
  'syntaxerror',
  'onhold',
  'undefined',
  'delivered',
  'feedback',
  'vacation',
] as const;

export type BounceReason = (typeof BOUNCE_REASONS)[number];

/** One affected recipient of a report. */
export interface BounceResult {
  readonly recipient: string | null;
  /** RFC 3463 enhanced status code as reported, e.g. "5.1.1"; null when the report carries none. */
  readonly status: string | null;
  /** RFC 5321 reply code as reported, e.g. 550. */
  readonly smtpCode: number | null;
  /**
   * RFC 3464 §2.3.3 Action (failed | delayed | delivered | relayed | expanded); `complaint` for an
   * RFC 5965 report and `auto-reply` for an RFC 3834 response.
   */
  readonly action: string | null;
  readonly diagnostic: string | null;
  readonly kind: BounceKind;
  readonly reason: BounceReason;
}

/** SMTP commands a rejection can follow; CONN is the greeting, before any command. */
export type SmtpCommand = 'CONN' | 'HELO' | 'EHLO' | 'STARTTLS' | 'AUTH' | 'MAIL' | 'RCPT' | 'DATA';

/** What a format parser read about one recipient, before classification. */
export interface DeliveryRecord {
  recipient: string | null;
  status: string | null;
  smtpCode: number | null;
  action: string | null;
  diagnostic: string | null;
  /** RFC 3464 §2.3.6 diagnostic-type, upper-cased ("SMTP", "X-UNIX", ...). */
  diagnosticType: string | null;
  command: SmtpCommand | null;
  /** A reason the format itself states unambiguously (e.g. a qmail or Exim message of its own). */
  reason: BounceReason | null;
}

export function emptyRecord(recipient: string | null): DeliveryRecord {
  return {
    recipient,
    status: null,
    smtpCode: null,
    action: null,
    diagnostic: null,
    diagnosticType: null,
    command: null,
    reason: null,
  };
}
