import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { EmailRow, RecipientRow } from '../emails';
import { ONE_CLICK, unsubscribeToken, unsubscribeUrl } from './unsubscribe-token';

export interface OneClickDeps {
  readonly db: Kysely<Database>;
  readonly baseUrl: string;
  /** `unsubscribeKey(SECRET_KEY)`. */
  readonly key: Buffer;
}

// Header names compare case-insensitively (RFC 5322 §1.2.2); the anchor and literal keep it linear.
const OWN_LIST_UNSUBSCRIBE = /^list-unsubscribe[ \t]*:/im;

function headerBlock(raw: Buffer): string {
  const end = raw.indexOf('\r\n\r\n');
  return raw.subarray(0, end === -1 ? raw.length : end).toString('latin1');
}

/** Whether the message's own headers (stored JSON of an API send, or submitted bytes) carry List-Unsubscribe. */
export function hasOwnListUnsubscribe(own: string | Buffer | null): boolean {
  if (own === null) return false;
  if (Buffer.isBuffer(own)) return OWN_LIST_UNSUBSCRIBE.test(headerBlock(own));
  const names = Object.keys(JSON.parse(own) as Record<string, unknown>);
  return names.some((n) => n.toLowerCase() === 'list-unsubscribe');
}

/**
 * The `List-Unsubscribe` + `List-Unsubscribe-Post` pair (RFC 8058 §3.1) Mailroom adds
 * when the sending domain has `unsubscribeLink` on, or {} when it does not apply:
 * the message sets its own List-Unsubscribe (the sender's choice wins), or it has
 * more than one recipient — one message carries one header for all of them, and a
 * click could not tell which recipient asked (RFC 8058 §3.2 wants the URI to name one).
 * The MTA's DKIM signer covers both headers (src/mail/dkim-sign.ts; RFC 8058 §4).
 */
export async function oneClickHeaders(
  deps: OneClickDeps,
  email: Pick<EmailRow, 'id' | 'user_id' | 'domain_id'>,
  recipients: readonly Pick<RecipientRow, 'id'>[],
  own: string | Buffer | null,
): Promise<Record<string, string>> {
  const only = recipients.length === 1 ? recipients[0] : undefined;
  if (only === undefined || hasOwnListUnsubscribe(own)) return {};
  const domain = await deps.db
    .selectFrom('domains')
    .select('unsubscribe_link')
    .where('user_id', '=', email.user_id)
    .where('id', '=', email.domain_id)
    .executeTakeFirst();
  if (domain?.unsubscribe_link !== 1) return {};
  const token = unsubscribeToken(deps.key, {
    userId: email.user_id,
    emailId: email.id,
    recipientId: only.id,
  });
  return {
    'List-Unsubscribe': `<${unsubscribeUrl(deps.baseUrl, token)}>`,
    'List-Unsubscribe-Post': ONE_CLICK,
  };
}

/** Submitted bytes with the pair written first (header order is free, RFC 5322 §3.6). */
export function prependHeaders(raw: Buffer, headers: Record<string, string>): Buffer {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return lines.length === 0 ? raw : Buffer.concat([Buffer.from(lines.join(''), 'latin1'), raw]);
}
