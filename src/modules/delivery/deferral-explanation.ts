import type { BounceReason } from '../../mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import { decideReason } from '../../mail/reply-classifier/classify-reason';
import { findEnhancedStatus, findReplyCode } from '../../mail/reply-classifier/enhanced-status';

/**
 * "Why is this still queued?" in plain words (issue 19): what the receiving server's
 * temporary refusal means, by the reason the bounce classifier reads in it (the same
 * table that reads DSNs, so a reply and a report of it get the same words). A sentence
 * for the cause only; the caller adds when we retry.
 */
const CAUSES: Readonly<Partial<Record<BounceReason, string>>> = {
  mailboxfull: 'The recipient’s mailbox is full.',
  exceedlimit: 'The message is larger than the recipient’s server accepts right now.',
  mesgtoobig: 'The message is larger than the recipient’s server accepts.',
  systemfull: 'The recipient’s mail server is out of storage.',
  speeding: 'The recipient’s server is limiting how fast we may send to it (rate limiting).',
  toomanyconn:
    'The recipient’s server has too many connections from us open and asked us to come back later.',
  blocked: 'The recipient’s server is refusing mail from our sending address or IP for now.',
  badreputation: 'The recipient’s server is holding back mail from our IP because of its reputation.',
  spamdetected: 'The recipient’s server suspects the message is spam and deferred it.',
  policyviolation: 'The recipient’s server deferred the message under its local policy.',
  filtered: 'The recipient’s server is filtering this message for now.',
  rejected: 'The recipient’s server refused the sender address for now.',
  requireptr: 'The recipient’s server wants our IP to have a matching reverse DNS (PTR) record.',
  authfailure: 'The recipient’s server could not verify SPF, DKIM or DMARC for the message.',
  securityerror: 'The recipient’s server requires a security step (TLS or authentication) that failed.',
  networkerror: 'We could not reach the recipient’s mail server (network or DNS problem).',
  hostunknown: 'The recipient’s domain could not be resolved to a mail server for now.',
  systemerror: 'The recipient’s mail server reported a temporary internal problem.',
  notaccept: 'The recipient’s domain is not accepting mail right now.',
  contenterror: 'The recipient’s server could not accept the message content for now.',
  userunknown: 'The recipient’s server did not recognise the address, but only temporarily.',
  suspend: 'The recipient’s mailbox is temporarily disabled.',
  norelaying: 'The recipient’s server refused to relay the message for now.',
};

/** RFC 3463 codes whose meaning is plainer than the reason the classifier files them under. */
const BY_STATUS: Readonly<Record<string, string>> = {
  '4.4.1': 'The recipient’s mail server did not answer (no answer, or the connection was refused).',
  '4.4.2': 'The connection to the recipient’s mail server broke off.',
  '4.5.3': 'The recipient’s server takes fewer recipients at a time; the others are retried.',
  '4.2.1': 'The recipient’s mailbox is not accepting messages for now.',
};

// Haraka's own words when no MX of the domain could be connected to.
const NO_MX_REACHED = /\bTried all MXs\b/;

// Greylisting has no RFC 3463 code of its own; its servers say so in words.
const GREYLIST = /\bgr[ae]y\s?list/i;

/** `expired`, `onhold`, `undefined`: the classifier's words for "a delay, cause not stated". */
const GENERIC = 'The recipient’s server answered with a temporary error and did not say why.';

/** The plain-words cause of a temporary refusal, from its reply text and any stated codes. */
export function explainDeferral(reply: string): string {
  if (GREYLIST.test(reply))
    return 'The recipient’s server uses greylisting: it turns away the first attempt from a new sender on purpose and accepts a retry.';
  if (NO_MX_REACHED.test(reply)) return 'We could not connect to any of the recipient domain’s mail servers.';
  const status = findEnhancedStatus(reply);
  const plain = status === null ? undefined : BY_STATUS[status];
  if (plain !== undefined) return plain;
  const rec = {
    ...emptyRecord(null),
    status,
    smtpCode: findReplyCode(reply),
    action: 'delayed',
    diagnostic: reply,
    diagnosticType: 'SMTP',
  };
  return CAUSES[decideReason(rec)] ?? GENERIC;
}
