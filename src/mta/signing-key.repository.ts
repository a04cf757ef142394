import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What signing one email needs from the database: its sending domain's key, still sealed. */
export interface SigningDomainRow {
  readonly domainId: string;
  readonly domain: string;
  readonly selector: string;
  readonly sealedKey: string;
}

/** The sending domain of an email (emails.domain_id → domains). Read-only. */
export async function findSigningDomain(
  db: Kysely<Database>,
  emailId: string,
): Promise<SigningDomainRow | undefined> {
  return db
    .selectFrom('emails')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .select([
      'domains.id as domainId',
      'domains.domain as domain',
      'domains.dkim_selector as selector',
      'domains.dkim_private_key_encrypted as sealedKey',
    ])
    .where('emails.id', '=', emailId)
    .executeTakeFirst();
}
