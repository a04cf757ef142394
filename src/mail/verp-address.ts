/**
 * The VERP envelope sender of every message we send (spec, domains rule 5):
 *
 *   bounce+<email_id>@bounce.<domain>
 *
 * Mail sent by earlier versions carries `bounce+<email_id>.<tag>@bounce.<domain>`,
 * where `tag` is HMAC-SHA256 over the id and the sending domain under a key derived
 * from SECRET_KEY, cut to 80 bits (16 Crockford base32 characters). Reports to such
 * addresses still arrive while that mail is in flight, so both forms are read, and a
 * tag that is present must still verify: a wrong one names nothing.
 *
 * The address alone is no proof that we wrote it: its email id also shows in the
 * Message-ID. What keeps a forged report from reaching someone else's mail is the
 * scope (a report to `bounce.<domain>` touches only mail sent from `<domain>`,
 * src/modules/bounces/intake-match.ts) and ids that cannot be guessed; what keeps the
 * injection listener from relaying a stranger is its credential and the email row
 * being sent that every sender must name (src/mta/inject-verdicts.ts).
 */
import crypto from 'node:crypto';
import { base32 } from '../shared/ids';
import { deriveKey, safeEqual } from '../shared/secrets';

const TAG_CHARS = 16;
const HOST_PREFIX = 'bounce.';

/** The key of the tags in-flight mail carries: a purpose-bound subkey of SECRET_KEY. */
export function verpKey(secretKey: string): Buffer {
  return deriveKey(secretKey, 'verp-tag');
}

function tagOf(key: Buffer, emailId: string, domain: string): string {
  const mac = crypto.createHmac('sha256', key).update(`${emailId}\n${domain}`, 'utf8').digest();
  return base32(mac.subarray(0, 10), TAG_CHARS);
}

/** The return path the worker writes for a message. */
export function verpAddress(emailId: string, domain: string): string {
  return `bounce+${emailId}@${HOST_PREFIX}${domain.toLowerCase()}`;
}

/** The tagged return path earlier versions wrote, still read on mail in flight. */
export function taggedVerpAddress(emailId: string, domain: string, key: Buffer): string {
  const d = domain.toLowerCase();
  return `bounce+${emailId}.${tagOf(key, emailId, d)}@${HOST_PREFIX}${d}`;
}

/** What a VERP-shaped address says, before its tag is checked. */
export interface VerpParts {
  readonly emailId: string;
  /** Absent on the untagged form (the one written now, or a guess). */
  readonly tag: string | undefined;
  /** The sending domain: the address's host without `bounce.`, lower-case. */
  readonly domain: string;
}

const VERP = /^bounce\+(email_[0-9a-z]{26})(?:\.([0-9a-z]{16}))?@bounce\.([^@\s]+)$/i;

/** The parts of a VERP-shaped address (remote MTAs may change its case), or undefined. */
export function parseVerp(address: string): VerpParts | undefined {
  const m = VERP.exec(address.trim().replace(/^<|>$/g, ''));
  if (!m?.[1] || !m[3]) return undefined;
  return { emailId: m[1].toLowerCase(), tag: m[2]?.toLowerCase(), domain: m[3].toLowerCase() };
}

/**
 * The parts of a VERP address in either form, unless it carries a tag that is not the
 * one we wrote for that id and domain (compared in constant time): that one names
 * nothing. Which message it names, if any, is for the caller to look up in its scope.
 */
export function readVerp(address: string, key: Buffer): VerpParts | undefined {
  const parts = parseVerp(address);
  if (parts?.tag === undefined) return parts;
  return safeEqual(parts.tag, tagOf(key, parts.emailId, parts.domain)) ? parts : undefined;
}

/**
 * The email id of a VERP address, tag unchecked. For the MTA's outbound hooks,
 * which only see senders the injection guard already accepted.
 */
export function emailIdFromVerp(address: string): string | undefined {
  return parseVerp(address)?.emailId;
}
