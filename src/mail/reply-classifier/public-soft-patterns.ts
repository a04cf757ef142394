// Rows from public catalogues for failures that are not the address's fault (soft), and the
// RFC 3463 / Haraka wordings MTAs write when they have no text of their own (issue 22 item 4).
// They matter for kind as much as the unknown-user rows: a full mailbox, a blocklisting, a
// relaying refusal or a rate limit quoted with a loosely used 5.1.1 must not suppress the
// address (classify-reason.ts checks these reasons before believing X.1.1).
//   sisimai: lib/Sisimai/Reason/{MailboxFull,Blocked,NoRelaying,Speeding,RateLimited,Rejected,
//            PolicyViolation,Expired}.pm (BSD-2-Clause), as our own patterns.
//   rfc3463: the detail texts of RFC 3463 §3, which Haraka's DSN module and many MTAs send as is.
//   haraka:  Haraka's outbound (hmail.js) bounces: "No MX for <domain>" and the null-MX refusal.
import type { StatusPattern } from './pattern-row';
import { row, sure } from './pattern-row';

export const PUBLIC_SOFT_PATTERNS: readonly StatusPattern[] = [
  // Sisimai MailboxFull.
  row(
    'mailboxfull',
    /\b(?:account|user|mailbox|maildir) (?:is )?(?:temporarily )?over (?:the )?quota\b|\bmailbox (?:is )?full\b|\bfull mailbox\b|\bmailfolder is full\b|\bover the allowed quota\b/,
    '552 5.2.2 <kijitora@example.jp>... Mailbox Full',
    'sisimai',
  ),
  row(
    'mailboxfull',
    /\bis over (?:disk )?quota(?: temporarily)?\b|\buser has exceeded quota\b|\b(?:mail|disc|mailbox quota usage) quota exceeded\b|\bquota violation for\b|\brecipient reached disk quota\b|\bmailbox has exceeded its disk space limit\b|\bdoes not have enough space\b|\bnot enough storage space in\b/,
    '550 5.1.1 Recipient reached disk quota',
    'sisimai',
  ),
  // Sisimai Blocked: our host or IP is refused.
  row(
    'blocked',
    /\bblocked using \S|\bblacklisted by\b|\bbanned sending ip\b|\bpart of their network is on our block list\b|\bnot currently accepting mail from your ip\b|\bis in a black list\b/,
    '550 5.7.1 Service unavailable; client [192.0.2.1] blocked using zen.spamhaus.org',
    'sisimai',
  ),
  row(
    'blocked',
    /\byou are sending spam\b|\byour ip address is listed in the rbl\b|\btemporarily deferred due to unexpected volume or user complaints\b|\bwe do not accept mail from dynamic ips\b|\bhosts with dynamic ip\b|\bsender ip address rejected\b/,
    '550 Your IP address is listed in the RBL',
    'sisimai',
  ),
  // Sisimai NoRelaying.
  row(
    'norelaying',
    /\brelay(?:ing)? (?:access )?denied\b|\brelay not permitted\b|\bunable to relay for\b|\bnot allowed to relay through this machine\b|\bthis system is not configured to relay mail\b|\bnot an open relay\b|\binsecure mail relay\b/,
    '554 5.7.1 <kijitora@example.org>: Relay access denied',
    'sisimai',
  ),
  // Sisimai Speeding and RateLimited.
  row(
    'speeding',
    /\bplease try again slower\b|\bhas been temporarily rate limited\b|\breceiving mail at a rate that prevents additional messages\b/,
    '451 4.7.1 <mx.example.org[192.0.2.2]>: Client host rejected: Please try again slower',
    'sisimai',
  ),
  // Sisimai Rejected: the envelope sender is refused.
  row(
    'rejected',
    /\bsender (?:address has been blacklisted|email address rejected|is in my black list|is spammer|not pre-approved|verify failed)\b|\bdomain of sender address \S/,
    '550 5.1.8 Sender verify failed',
    'sisimai',
  ),
  row(
    'rejected',
    /\bdoes not exist e2110\b|\bempty envelope senders not allowed\b|\bnull sender is not allowed\b|\bunroutable sender address\b|\byour email address has been blacklisted\b|\bmail from not owned by user\b/,
    '553 5.1.8 Unroutable sender address',
    'sisimai',
  ),
  // Sisimai PolicyViolation.
  row(
    'policyviolation',
    /\blocal policy violation\b|\bdenied by policy\b|\bdmarc policy\b|\bemail not accepted for policy reasons\b|\bemail rejected due to security policies\b|\bmessage bounced due to organizational settings\b|\bby non-member to a members-only list\b/,
    '570 5.7.7 Email not accepted for policy reasons',
    'sisimai',
  ),
  // Sisimai Expired.
  row(
    'expired',
    /\bdelivery time expired\b|\bmessage expired after sitting in queue\b|\bhave been failing for a long time\b|\bunable to deliver message after multiple retries\b|\bwas not reachable within the allowed queue period\b|\byour message could not be delivered for more than\b/,
    '554 4.4.7 Message expired after sitting in queue for 5 days',
    'sisimai',
  ),

  // RFC 3463 §3 detail texts.
  row(
    'userunknown',
    /\bbad destination mailbox address\b/,
    '550 5.1.1 Bad destination mailbox address',
    'rfc3463',
  ),
  row(
    'hostunknown',
    /\bbad destination system address\b/,
    '550 5.1.2 Bad destination system address',
    'rfc3463',
  ),
  row('hasmoved', /\bmailbox has moved\b/, '550 5.1.6 Mailbox has moved', 'rfc3463'),
  row(
    'suspend',
    /\bmailbox disabled, not accepting messages\b/,
    '550 5.2.1 Mailbox disabled, not accepting messages',
    'rfc3463',
  ),
  row(
    'exceedlimit',
    /\bmessage length exceeds administrative limit\b/,
    '552 5.2.3 Message length exceeds administrative limit',
    'rfc3463',
  ),
  row('mesgtoobig', /\bmessage too big for system\b/, '552 5.3.4 Message too big for system', 'rfc3463'),
  // RFC 7505 §4.2 (X.7.27, in the registry RFC 3463 set up): our sender domain has a null MX.
  row('rejected', /\bsender address has null mx\b/, '550 5.7.27 Sender address has null MX', 'rfc3463'),

  // Haraka outbound's own bounces (the MTA Mailroom delivers through).
  row('hostunknown', /\bno mx for \S/, '550 5.1.2 No MX for example.invalid', 'haraka'),
  sure(
    'notaccept',
    /\bsends and receives no email \(null mx\)/,
    '550 5.1.2 Domain example.org sends and receives no email (NULL MX)',
    'haraka',
  ),
];
