import { emptyRecord } from '../../mail/reply-classifier/bounce-result';
import type { BounceReason } from '../../mail/reply-classifier/bounce-result';
import { decideReason, kindOfReason } from '../../mail/reply-classifier/classify-reason';
import { findEnhancedStatus, findReplyCode } from '../../mail/reply-classifier/enhanced-status';

/**
 * "Why did this bounce?" in plain words: a bounced recipient's last reply read by the same
 * reason table as bounce reports and suppressions (src/mail/reply-classifier), so the words
 * shown agree with what the appliance did: a hard bounce (the address does not exist, its
 * domain takes no mail) is suppressed; a soft one (blocked, spam, policy, size) is not, and a
 * new send tries again.
 */
const CAUSES: Readonly<Partial<Record<BounceReason, string>>> = {
  userunknown: 'The recipient’s server says the address does not exist.',
  hostunknown: 'The recipient’s domain does not exist or takes no mail (no mail server, or a null MX).',
  hasmoved: 'The recipient has moved: the address is no longer in use.',
  notaccept: 'The recipient’s domain does not accept mail.',
  mailboxfull: 'The recipient’s mailbox is full.',
  mesgtoobig: 'The message is larger than the recipient’s server accepts.',
  exceedlimit: 'The message is larger than the recipient’s server accepts.',
  suspend: 'The recipient’s mailbox is disabled.',
  blocked: 'The recipient’s server refuses mail from our sending IP or domain.',
  badreputation: 'The recipient’s server refuses mail from our IP because of its reputation.',
  spamdetected: 'The recipient’s server judged the message to be spam.',
  virusdetected: 'The recipient’s server found a virus in the message.',
  policyviolation: 'The recipient’s server refused the message under its local policy.',
  filtered: 'The recipient’s server filtered the message out.',
  rejected: 'The recipient’s server refused our sender address.',
  requireptr: 'The recipient’s server wants our IP to have a matching reverse DNS (PTR) record.',
  authfailure: 'The recipient’s server could not verify SPF, DKIM or DMARC for the message.',
  securityerror: 'The recipient’s server requires a security step (TLS or authentication) that failed.',
  norelaying: 'The recipient’s server refused to relay the message.',
  contenterror: 'The recipient’s server could not accept the message content.',
  systemerror: 'The recipient’s mail server reported an internal problem.',
};

const UNSTATED = 'The recipient’s server refused the message for good and did not say why.';

export interface BounceExplanation {
  readonly recipient: string;
  /** `hard`: the address cannot receive mail (suppressed); `soft`: it might later (not suppressed). */
  readonly kind: 'hard' | 'soft';
  /** The classifier's reason (`userunknown`, `spamdetected`, …), as suppressions record it. */
  readonly reason: string;
  readonly explanation: string;
}

/** The reading of one bounced recipient's last reply; test mail never suppresses (test mode). */
export function explainBounce(recipient: string, reply: string, mode: 'live' | 'test'): BounceExplanation {
  const rec = {
    ...emptyRecord(recipient),
    status: findEnhancedStatus(reply),
    smtpCode: findReplyCode(reply),
    action: 'failed',
    diagnostic: reply,
    diagnosticType: 'SMTP',
  };
  const reason = decideReason(rec);
  const kind = kindOfReason(reason, rec) === 'hard' ? 'hard' : 'soft';
  const cause = CAUSES[reason] ?? UNSTATED;
  const effect =
    mode === 'test'
      ? `A ${kind} bounce; test mail never adds a suppression.`
      : kind === 'hard'
        ? 'A hard bounce: the address is added to your suppressions, so later sends to it are refused until you remove it.'
        : 'A soft bounce: the address is not suppressed, and a new send to it is tried again.';
  return { recipient, kind, reason, explanation: `${cause} ${effect}` };
}
