// From what a report says about one recipient (status, reply code, command, diagnostic text) to a
// reason and a kind. The status code is read first (RFC 3463), then the wording is checked against
// the pattern table; where they disagree, the rules below say which one wins and why.
import type { BounceKind, BounceReason, DeliveryRecord } from './bounce-result';
import { isClassOnly, reasonOfStatus } from './enhanced-status';
import { BEFORE_DATA } from './smtp-command';
import { normaliseDiagnostic, settledReason, textSays } from './status-patterns';
import { saysSlowDown } from './throttling';

interface Evidence {
  readonly rec: DeliveryRecord;
  readonly text: string;
  /** What the enhanced status code alone says. */
  readonly byStatus: BounceReason | null;
}

/** Reasons a status code can only suggest; the wording may overrule them. */
const WEAK_STATUS_REASONS: ReadonlySet<BounceReason | null> = new Set<BounceReason | null>([
  null,
  'undefined',
  'onhold',
  'systemerror',
  'securityerror',
  'expired',
  'networkerror',
  'hostunknown',
  'userunknown',
]);

const beforeData = (e: Evidence): boolean => e.rec.command !== null && BEFORE_DATA.includes(e.rec.command);

/**
 * First pass: reasons decided by a status code and wording together, most specific first. A
 * mailbox-full or suspended wording beats an X.1.1 code (servers reuse 5.1.1 loosely), and an
 * unknown-user wording only means the address is bad when the server refused it at RCPT TO or said
 * X.1.1 as well; after DATA the same words come from per-user content filters.
 */
const FIRST_PASS: readonly [BounceReason, (e: Evidence) => boolean][] = [
  ['mailboxfull', (e) => e.byStatus === 'mailboxfull' || textSays('mailboxfull', e.text)],
  [
    'mesgtoobig',
    (e) => e.byStatus === 'mesgtoobig' || (e.byStatus !== 'exceedlimit' && textSays('mesgtoobig', e.text)),
  ],
  ['exceedlimit', (e) => e.byStatus === 'exceedlimit' || textSays('exceedlimit', e.text)],
  ['suspend', (e) => e.byStatus === 'suspend' || e.rec.smtpCode === 525 || textSays('suspend', e.text)],
  ['hasmoved', (e) => e.byStatus === 'hasmoved' || textSays('hasmoved', e.text)],
  [
    'norelaying',
    (e) => !['CONN', 'EHLO', 'HELO'].includes(e.rec.command ?? '') && textSays('norelaying', e.text),
  ],
  ['authfailure', (e) => e.byStatus === 'authfailure' || textSays('authfailure', e.text)],
  [
    'userunknown',
    (e) =>
      e.byStatus === 'userunknown'
        ? !(
            [
              'norelaying',
              'blocked',
              'mailboxfull',
              'hasmoved',
              'rejected',
              'notaccept',
              'filtered',
              // A rate limit or policy refusal quoted with a loose X.1.1 is about our traffic.
              'speeding',
              'toomanyconn',
              'policyviolation',
            ] as const
          ).some((r) => textSays(r, e.text))
        : e.rec.command === 'RCPT' &&
          e.byStatus !== 'suspend' &&
          !throttled(e) &&
          textSays('userunknown', e.text),
  ],
  [
    'filtered',
    (e) =>
      e.byStatus === 'filtered'
        ? textSays('userunknown', e.text) || textSays('filtered', e.text)
        : !beforeData(e) && (textSays('filtered', e.text) || textSays('userunknown', e.text)),
  ],
  ['requireptr', (e) => e.byStatus === 'requireptr' || textSays('requireptr', e.text)],
  ['notcompliantrfc', (e) => textSays('notcompliantrfc', e.text)],
  ['badreputation', (e) => textSays('badreputation', e.text)],
  [
    'contenterror',
    (e) => !spamByEvidence(e) && (e.byStatus === 'contenterror' || textSays('contenterror', e.text)),
  ],
  ['rejected', rejectedByEvidence],
  [
    'hostunknown',
    (e) =>
      e.byStatus === 'hostunknown'
        ? // 5.4.4 "unable to route" is specific and permanent (RFC 3463 §3.5): a DNS-failure
          // wording beside it does not make it temporary. X.1.2 with such wording may be a lookup
          // that failed rather than a domain that does not exist.
          e.rec.status === '5.4.4' || !textSays('networkerror', e.text)
        : textSays('hostunknown', e.text) && !isTemporary(e.rec) && !throttled(e),
  ],
  ['spamdetected', spamByEvidence],
  ['speeding', (e) => textSays('speeding', e.text)],
  ['toomanyconn', (e) => e.byStatus === 'toomanyconn' || textSays('toomanyconn', e.text)],
  ['blocked', (e) => e.byStatus === 'blocked' || textSays('blocked', e.text)],
];

/**
 * A temporary reply that asks us to slow down or come back later (greylisting, rate limits,
 * "try again later", the X.7 policy codes on a 4xx) is about our traffic, not the address, even
 * when it quotes the address (ZoneMTA's defer/greylist and slowdown/rate rules).
 */
function throttled(e: Evidence): boolean {
  if (!isTemporary(e.rec)) return false;
  if (e.rec.status?.startsWith('4.7.') === true) return true;
  // The slow-down table pacing uses too (throttling.ts); greylisting only here: it defers one
  // message, not the destination.
  return saysSlowDown(e.text) || /\bgreylist/.test(e.text);
}

function spamByEvidence(e: Evidence): boolean {
  if (e.rec.status === null) return false;
  if (e.byStatus === 'spamdetected') return true;
  return !beforeData(e) && textSays('spamdetected', e.text);
}

/** A refusal of the sender (X.1.7/X.1.8): only trusted at MAIL FROM, at DATA, or with a vague code. */
function rejectedByEvidence(e: Evidence): boolean {
  if (e.byStatus === 'rejected') return true;
  if (!textSays('rejected', e.text)) return false;
  if (e.rec.command === 'MAIL') return true;
  if (e.rec.command === 'DATA') return e.byStatus !== 'userunknown';
  return e.byStatus === null || ['securityerror', 'systemerror', 'onhold', 'undefined'].includes(e.byStatus);
}

/** Reasons a refusal at connection or greeting time can have. */
const HOST_LEVEL: readonly BounceReason[] = [
  'requireptr',
  'badreputation',
  'authfailure',
  'speeding',
  'toomanyconn',
  'blocked',
  'notaccept',
  'systemfull',
  'systemerror',
  'networkerror',
  'expired',
  'securityerror',
];

/** Second pass: the wording alone, for reports whose code is missing or says little. */
const SECOND_PASS: readonly BounceReason[] = [
  'mailboxfull',
  'authfailure',
  'badreputation',
  'speeding',
  'spamdetected',
  'virusdetected',
  'policyviolation',
  'norelaying',
  'systemerror',
  'networkerror',
  'suspend',
  'contenterror',
  'systemfull',
  'notaccept',
  'expired',
  'securityerror',
  'mailererror',
];

function secondPass(e: Evidence): BounceReason | null {
  const { rec } = e;
  if (!WEAK_STATUS_REASONS.has(e.byStatus) && rec.diagnosticType === 'SMTP') return e.byStatus;
  // Specific permanent routing codes decide whatever the reporter's own wording (a non-SMTP
  // Diagnostic-Code, e.g. Postfix's "Name service error ... Malformed name server reply" with
  // 5.4.4): RFC 3463 X.4.4 "unable to route", RFC 7505 X.1.10 "null MX".
  if (rec.status === '5.4.4' || rec.status === '5.1.10') return e.byStatus;
  for (const r of SECOND_PASS) if (textSays(r, e.text)) return r;
  if (e.byStatus !== null) return e.byStatus;
  const subject = rec.status?.slice(0, 3);
  if (subject === '5.6' || subject === '4.6') return 'contenterror';
  if (subject === '5.7' || subject === '4.7') return 'securityerror';
  if (rec.diagnosticType?.startsWith('X-UNIX') === true) return 'mailererror';
  const code = rec.smtpCode ?? 0;
  if ((code > 500 && code < 508) || (code > 400 && code < 408)) return 'syntaxerror';
  if (rec.action === 'delayed' || rec.action === 'expired') return 'expired';
  if (rec.command === 'EHLO' || rec.command === 'HELO') return 'blocked';
  return null;
}

/** The reason for one recipient's failure (or success). */
export function decideReason(rec: DeliveryRecord): BounceReason {
  // A reason the format states outright stands, unless it is one a closer reading may refine.
  const stated = rec.reason;
  if (stated !== null && !WEAK_STATUS_REASONS.has(stated)) return stated;
  if (rec.status?.startsWith('2.') === true) return 'delivered';
  if (rec.action !== null && ['delivered', 'relayed', 'expanded'].includes(rec.action)) return 'delivered';

  const e: Evidence = {
    rec,
    text: normaliseDiagnostic(rec.diagnostic ?? ''),
    byStatus: reasonOfStatus(rec.status),
  };
  // The reporting system's own words about its directory or routing settle the question.
  const settled = settledReason(e.text);
  if (settled !== null) return settled;
  // Refused before MAIL FROM: the server turned our host away, whatever else the text says.
  if (rec.command === 'CONN' || rec.command === 'HELO' || rec.command === 'EHLO') {
    return HOST_LEVEL.find((r) => textSays(r, e.text)) ?? 'blocked';
  }
  if (rec.diagnosticType === null || rec.diagnosticType === 'SMTP') {
    for (const [reason, probe] of FIRST_PASS) if (stated === reason || probe(e)) return reason;
  }
  if (stated !== null && stated !== 'onhold' && stated !== 'undefined') return stated;
  const found = secondPass(e) ?? (rec.action === 'delayed' ? 'expired' : null);
  if (found !== null && found !== 'undefined' && found !== 'onhold') return found;
  if (textSays('vacation', e.text)) return 'vacation';
  return e.text !== '' ? 'onhold' : 'undefined';
}

/**
 * The kind a reason implies. Only an address that cannot receive mail is `hard`: the mailbox or
 * domain does not exist or moved (X.1.1, X.1.2, X.1.6), or the domain accepts no mail at all with a
 * permanent reply (RFC 7505). Everything else that failed is `soft`, whatever its class digit.
 */
export function kindOfReason(reason: BounceReason, rec: DeliveryRecord): BounceKind {
  switch (reason) {
    case 'delivered':
      return 'delivered';
    case 'feedback':
      return 'complaint';
    case 'vacation':
      return 'auto_reply';
    case 'userunknown':
    case 'hostunknown':
    case 'hasmoved':
      return 'hard';
    case 'notaccept':
      return isTemporary(rec) ? 'soft' : 'hard';
    default:
      return 'soft';
  }
}

function isTemporary(rec: DeliveryRecord): boolean {
  if (rec.status !== null && !isClassOnly(rec.status)) return rec.status.startsWith('4');
  if (rec.smtpCode !== null) return rec.smtpCode < 500;
  if (rec.status !== null) return rec.status.startsWith('4');
  return /\btemporar|\bpersistent|\btry again\b/i.test(rec.diagnostic ?? '');
}
