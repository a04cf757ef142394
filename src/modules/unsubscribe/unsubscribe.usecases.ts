import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { defineError } from '../../shared/app-error';
import type { Actor } from '../audit';
import { suppressAutomatically } from '../suppressions';
import { recordOutbox } from '../webhooks';
import { verifyUnsubscribeToken } from './unsubscribe-token';

export const unsubscribeLinkNotFound = defineError(
  'UNSUBSCRIBE_LINK_NOT_FOUND',
  404,
  'This unsubscribe link is not valid (or its message has been deleted)',
);

export interface UnsubscribeTarget {
  readonly userId: string;
  readonly emailId: string;
  readonly address: string;
  readonly mode: 'live' | 'test';
}

/**
 * The recipient a token names. Only a token whose tag verifies reaches the database,
 * and then only as the three ids it signs, scoped to its account.
 */
export async function unsubscribeTarget(
  db: Kysely<Database>,
  key: Buffer,
  token: string,
): Promise<UnsubscribeTarget> {
  const ref = verifyUnsubscribeToken(key, token);
  if (ref === undefined) throw unsubscribeLinkNotFound();
  const row = await db
    .selectFrom('email_recipients as r')
    .innerJoin('emails as e', 'e.id', 'r.email_id')
    .select(['r.address', 'e.mode'])
    .where('r.id', '=', ref.recipientId)
    .where('r.email_id', '=', ref.emailId)
    .where('r.user_id', '=', ref.userId)
    .where('e.user_id', '=', ref.userId)
    .executeTakeFirst();
  if (row === undefined) throw unsubscribeLinkNotFound();
  return { userId: ref.userId, emailId: ref.emailId, address: row.address, mode: row.mode };
}

/**
 * RFC 8058 one-click: suppresses the recipient in the message's account (type
 * `unsubscribe`) and announces `email.unsubscribed`, once: a repeated POST (providers
 * retry, users click twice) changes nothing and fires nothing. The suppression's audit
 * entry names the poster (`actor`: anonymous, with its address and user agent).
 */
export async function unsubscribeOneClick(
  db: Kysely<Database>,
  key: Buffer,
  token: string,
  actor: Actor,
): Promise<UnsubscribeTarget & { readonly newlySuppressed: boolean }> {
  const target = await unsubscribeTarget(db, key, token);
  const newlySuppressed = await db.transaction().execute(async (trx) => {
    const added = await suppressAutomatically(trx, {
      mode: target.mode,
      userId: target.userId,
      email: target.address,
      type: 'unsubscribe',
      reason: 'one-click unsubscribe (RFC 8058)',
      sourceEmailId: target.emailId,
      actor,
    });
    if (added) {
      await recordOutbox(trx, {
        userId: target.userId,
        event: 'email.unsubscribed',
        emailId: target.emailId,
        recipient: target.address,
        data: {},
        mode: target.mode,
      });
    }
    return added;
  });
  return { ...target, newlySuppressed };
}
