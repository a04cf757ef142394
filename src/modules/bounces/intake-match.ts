// Which message and which of its recipients a report is about (issue 5, item 4). Pure:
// the job looks the candidates up in the database, in the order given here.
import { parseVerp, readVerp } from '../../mail/verp-address';
import type { BounceKind, BounceResult } from '../../mail/reply-classifier/bounce-result';
import { headerAddresses } from './email-address';
import { allFields, parseHeaderBlock, splitHeaderBody } from './header-fields';
import { toByteString } from './mime-message';

/** How a report was tied to its message (stored as `bounce_reports.matched_by`). */
export type MatchedBy = 'verp' | 'verp_header' | 'message_id';

/**
 * A VERP address within the scope, untagged or with a tag that verified: the message it
 * names and that message's sending domain.
 */
export interface VerpCandidate {
  readonly emailId: string;
  readonly domain: string;
}

/** What a report offers for finding its message, strongest evidence first. */
export interface MessageCandidates {
  /** VERP addresses among the envelope recipients (the MX hook's `rcptTo`), within `scope`. */
  readonly verp: readonly VerpCandidate[];
  /** VERP addresses in the report's own delivery headers (To, Delivered-To …), within `scope`. */
  readonly verpHeader: readonly VerpCandidate[];
  /** The Message-ID of the returned message, as the report quotes it. */
  readonly messageId: string | null;
  /**
   * Sending domains whose mail the report may affect (issue 17, finding 3): those of
   * the return-path hosts it was sent to (`bounce.<domain>`). From the MX, the envelope
   * recipients' hosts; from the operator's endpoint, the return-path hosts the report's
   * own delivery headers name, or null (any domain) when they name none.
   */
  readonly scope: readonly string[] | null;
  /**
   * Email ids of VERP-shaped addresses that name nothing: a wrong tag, or a domain
   * outside `scope`. Logged with `bounce_unmatched`, never looked up.
   */
  readonly refused: readonly string[];
}

/**
 * Headers a delivering MTA or the reporter puts the envelope recipient in. A DSN is
 * addressed to the envelope sender (RFC 3464 §2, RFC 5321 §4.5.5), which is our VERP
 * address, so a report piped in without its envelope still names its message here.
 */
const DELIVERY_HEADERS = ['delivered-to', 'x-original-to', 'envelope-to', 'x-envelope-to', 'to'];

const RETURN_PATH_PREFIX = 'bounce.';

/** Header block of the report itself (never of the message it returns), bounded. */
function reportHeaders(raw: Buffer | string): string {
  const head = typeof raw === 'string' ? raw.slice(0, 64 * 1024) : raw.subarray(0, 64 * 1024);
  return splitHeaderBody(toByteString(head)).head;
}

/** The sending domain of a return-path host address (`x@bounce.<domain>`), lower-case. */
function returnPathDomain(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  const host = address
    .slice(at + 1)
    .replace(/>$/, '')
    .trim()
    .toLowerCase();
  return at >= 0 && host.startsWith(RETURN_PATH_PREFIX) && host.length > RETURN_PATH_PREFIX.length
    ? host.slice(RETURN_PATH_PREFIX.length)
    : undefined;
}

function uniqueStrings(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined))];
}

function sortVerp(
  addresses: readonly string[],
  key: Buffer,
  scope: readonly string[] | null,
  refused: Set<string>,
): VerpCandidate[] {
  const seen = new Map<string, VerpCandidate>();
  for (const address of addresses) {
    const shape = parseVerp(address);
    if (!shape) continue;
    const read = readVerp(address, key);
    if (!read || (scope !== null && !scope.includes(read.domain))) {
      refused.add(shape.emailId);
      continue;
    }
    seen.set(`${read.emailId}@${read.domain}`, { emailId: read.emailId, domain: read.domain });
  }
  return [...seen.values()];
}

export function messageCandidates(input: {
  readonly rcptTo: readonly string[];
  readonly raw: Buffer | string;
  readonly originalMessageId: string | null;
  /** The VERP tag key (`verpKey(SECRET_KEY)`). */
  readonly verpKey: Buffer;
}): MessageCandidates {
  const fields = parseHeaderBlock(reportHeaders(input.raw));
  const headerAddrs = DELIVERY_HEADERS.flatMap((name) =>
    allFields(fields, name).flatMap((v) => headerAddresses(v)),
  );
  const envelope = input.rcptTo.map((a) => a.trim().replace(/^<|>$/g, ''));
  // The MX only hands over recipients at return-path hosts, so an envelope always
  // scopes (to nothing, should a host not have the form). The endpoint has no
  // envelope: the report's own headers say which return path it was sent to.
  const named = uniqueStrings(headerAddrs.map(returnPathDomain));
  const scope =
    envelope.length > 0 ? uniqueStrings(envelope.map(returnPathDomain)) : named.length > 0 ? named : null;
  const refused = new Set<string>();
  return {
    verp: sortVerp(envelope, input.verpKey, scope, refused),
    verpHeader: sortVerp(headerAddrs, input.verpKey, scope, refused),
    messageId: input.originalMessageId?.trim() || null,
    scope,
    refused: [...refused],
  };
}

/** How a result was tied to one of the message's recipients. */
export type RecipientRule =
  /** The report names the address (case-insensitively). */
  | 'address'
  /** The report names no address; the returned message's headers name exactly one of ours. */
  | 'quoted_recipient'
  /**
   * The message had one recipient: a report about it can only be about that one, even
   * when it names another address (an alias or forwarding target) or none (a complaint
   * without Original-Rcpt-To, an auto-reply from a colleague's mailbox).
   */
  | 'only_recipient';

export interface MappedResult {
  /** The message's recipient address as stored (lower-case). */
  readonly recipient: string;
  readonly rule: RecipientRule;
  readonly result: BounceResult;
}

export interface RecipientMapping {
  readonly mapped: readonly MappedResult[];
  /** Results that could not be tied to one recipient of a multi-recipient message. */
  readonly unmapped: readonly BounceResult[];
}

/** Worst news first: one reading per recipient survives (an mbox of reports may repeat one). */
const STRENGTH: Readonly<Record<BounceKind, number>> = {
  complaint: 5,
  hard: 4,
  soft: 3,
  delivered: 2,
  auto_reply: 1,
};

function strength(r: BounceResult): number {
  return STRENGTH[r.kind] * 2 + (r.kind === 'soft' && isPermanent(r) ? 1 : 0);
}

/** A permanent failure: enhanced status class 5 (RFC 3463 §3.1), or a 5xx reply when no status was given. */
export function isPermanent(r: Pick<BounceResult, 'status' | 'smtpCode'>): boolean {
  if (r.status !== null) return r.status.startsWith('5.');
  return r.smtpCode !== null && r.smtpCode >= 500 && r.smtpCode < 600;
}

function recipientFor(
  result: BounceResult,
  recipients: readonly string[],
  quoted: readonly string[],
): { recipient: string; rule: RecipientRule } | undefined {
  const named = result.recipient?.toLowerCase() ?? null;
  if (named !== null && recipients.includes(named)) return { recipient: named, rule: 'address' };
  if (named === null) {
    const ours = quoted.filter((a) => recipients.includes(a));
    if (ours.length === 1 && ours[0] !== undefined) return { recipient: ours[0], rule: 'quoted_recipient' };
  }
  const only = recipients.length === 1 ? recipients[0] : undefined;
  return only !== undefined ? { recipient: only, rule: 'only_recipient' } : undefined;
}

/**
 * Ties each result to one recipient of the message (ARF reports name theirs through
 * Original-Rcpt-To, which the classifier already reads as the result's recipient).
 */
export function mapResults(input: {
  readonly results: readonly BounceResult[];
  /** The message's recipient addresses (to, cc, bcc), lower-case. */
  readonly recipients: readonly string[];
  /** Recipients the returned message's headers name (`readReport().originalRecipients`). */
  readonly originalRecipients: readonly string[];
}): RecipientMapping {
  const recipients = input.recipients.map((a) => a.toLowerCase());
  const quoted = [...new Set(input.originalRecipients.map((a) => a.toLowerCase()))];
  const byRecipient = new Map<string, MappedResult>();
  const unmapped: BounceResult[] = [];
  for (const result of input.results) {
    const to = recipientFor(result, recipients, quoted);
    if (!to) {
      unmapped.push(result);
      continue;
    }
    const seen = byRecipient.get(to.recipient);
    if (!seen || strength(result) > strength(seen.result)) byRecipient.set(to.recipient, { ...to, result });
  }
  return { mapped: [...byRecipient.values()], unmapped };
}
