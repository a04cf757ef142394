/**
 * The VERP envelope sender of every message we send (spec, domains rule 5):
 *
 *   bounce+<email_id>.<tag>@bounce.<domain>
 *
 * `tag` is HMAC-SHA256 over the id and the sending domain under a key derived from
 * SECRET_KEY, cut to 80 bits (16 Crockford base32 characters; the local part stays
 * at 56 of RFC 5321 §4.5.3.1.1's 64). Email ids show in Return-Path and
 * Message-ID, so without the tag anyone could name any message in a forged
 * bounce (issue 17, finding 3); with it only a report that carries an address we
 * wrote can be tied to its message by VERP. The worker builds the address, the
 * MTA's injection guard and the bounce intake verify it, all from the same
 * SECRET_KEY.
 */
import crypto from 'node:crypto';
import { base32 } from '../../shared/ids';
import { deriveKey, safeEqual } from '../../shared/secrets';

const TAG_CHARS = 16;
const HOST_PREFIX = 'bounce.';

/** The tag key: a purpose-bound subkey of SECRET_KEY. */
export function verpKey(secretKey: string): Buffer {
  return deriveKey(secretKey, 'verp-tag');
}

function tagOf(key: Buffer, emailId: string, domain: string): string {
  const mac = crypto.createHmac('sha256', key).update(`${emailId}\n${domain}`, 'utf8').digest();
  return base32(mac.subarray(0, 10), TAG_CHARS);
}

export function verpAddress(emailId: string, domain: string, key: Buffer): string {
  const d = domain.toLowerCase();
  return `bounce+${emailId}.${tagOf(key, emailId, d)}@${HOST_PREFIX}${d}`;
}

/** What a VERP-shaped address says, before its tag is checked. */
export interface VerpParts {
  readonly emailId: string;
  /** Absent on an address without one (mail sent before tags, or a guess). */
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
 * The message a VERP address names, only when its tag is the one we wrote for that
 * id and domain (compared in constant time). A missing or wrong tag names nothing.
 */
export function verifiedVerp(address: string, key: Buffer): VerpParts | undefined {
  const parts = parseVerp(address);
  if (parts?.tag === undefined) return undefined;
  return safeEqual(parts.tag, tagOf(key, parts.emailId, parts.domain)) ? parts : undefined;
}

/**
 * The email id of a VERP address, tag unchecked. For the MTA's outbound hooks,
 * which only see senders the injection guard already verified.
 */
export function emailIdFromVerp(address: string): string | undefined {
  return parseVerp(address)?.emailId;
}
