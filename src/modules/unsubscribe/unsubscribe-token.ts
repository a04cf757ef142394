/**
 * The token of a Mailroom-served one-click unsubscribe URL (issue 22 item 5):
 *
 *   <user id>.<email id>.<recipient id>.<tag>     (ids without their prefixes)
 *
 * `tag` is HMAC-SHA256 over the three ids under a key derived from SECRET_KEY, cut to
 * 160 bits. Ids are sortable and partly guessable, so only a token we wrote names a
 * recipient: the tag is checked before anything in it reaches the database.
 */
import crypto from 'node:crypto';
import { base32 } from '../../shared/ids';
import { deriveKey, safeEqual } from '../../shared/secrets';
import { trimEndChars } from '../../shared/text';

/** RFC 8058 §3.1: the only value List-Unsubscribe-Post may have. */
export const ONE_CLICK = 'List-Unsubscribe=One-Click';

const TAG_CHARS = 32;
// Crockford base32 lower case, as shared/ids writes ids: fixed lengths, so the match is linear.
const TOKEN =
  /^([0-9a-hjkmnp-tv-z]{26})\.([0-9a-hjkmnp-tv-z]{26})\.([0-9a-hjkmnp-tv-z]{26})\.([0-9a-hjkmnp-tv-z]{32})$/;

export interface UnsubscribeRef {
  readonly userId: string;
  readonly emailId: string;
  readonly recipientId: string;
}

/** The tag key: a purpose-bound subkey of SECRET_KEY. */
export function unsubscribeKey(secretKey: string): Buffer {
  return deriveKey(secretKey, 'unsubscribe-link');
}

function tagOf(key: Buffer, ref: UnsubscribeRef): string {
  const mac = crypto
    .createHmac('sha256', key)
    .update(`${ref.userId}\n${ref.emailId}\n${ref.recipientId}`, 'utf8')
    .digest();
  return base32(mac.subarray(0, 20), TAG_CHARS);
}

function body(id: string, prefix: string): string {
  return id.startsWith(`${prefix}_`) ? id.slice(prefix.length + 1) : id;
}

export function unsubscribeToken(key: Buffer, ref: UnsubscribeRef): string {
  return [
    body(ref.userId, 'usr'),
    body(ref.emailId, 'email'),
    body(ref.recipientId, 'rcpt'),
    tagOf(key, ref),
  ].join('.');
}

/** What a token names when its tag is ours; undefined for anything else. */
export function verifyUnsubscribeToken(key: Buffer, token: string): UnsubscribeRef | undefined {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const ref = { userId: `usr_${m[1]}`, emailId: `email_${m[2]}`, recipientId: `rcpt_${m[3]}` };
  return safeEqual(tagOf(key, ref), m[4] ?? '') ? ref : undefined;
}

/** The URL List-Unsubscribe carries: BASE_URL's origin and path, then the route. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${trimEndChars(baseUrl, '/')}/public/unsubscribe/${token}`;
}
