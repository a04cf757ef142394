import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Whether the email row `emailId` was sent from `domain` (its domain row's name) and is
 * being sent now (`processing`: the worker commits that before it hands the message
 * over). Read-only; for the injection listener's MAIL check.
 */
export async function isEmailBeingSent(
  db: Kysely<Database>,
  emailId: string,
  domain: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('emails')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .select('emails.id')
    .where('emails.id', '=', emailId)
    .where('domains.domain', '=', domain)
    .where('emails.status', '=', 'processing')
    .executeTakeFirst();
  return row !== undefined;
}
