import type { Kysely } from 'kysely';
import { PreparedQuery } from '../../db/precompiled';
import type { Database } from '../../db/schema';
import { domainNotFound } from '../domains';
import type { DomainRow } from '../domains';
import type { Mailbox } from '../../mail/address';
import { domainNotVerified, invalidFromAddress } from '../emails';

/** domains.repository's findDomainByName, compiled once for the send path (db/precompiled.ts). */
const domainByName = new PreparedQuery<{ userId: string; domain: string }, DomainRow>((db, s) =>
  db
    .selectFrom('domains')
    .selectAll()
    .where('user_id', '=', s.param('userId'))
    .where('domain', '=', s.param('domain')),
);

/**
 * The spec's "resolve sending domain, check it is verified" steps plus
 * restrictSenders, shared by the API (POST /v1/emails) and SMTP submission.
 * `allowUnverified`: test mode, whose mail is captured instead of delivered.
 */
export async function resolveSendingDomain(
  db: Kysely<Database>,
  userId: string,
  from: Mailbox,
  options: { readonly allowUnverified?: boolean } = {},
): Promise<DomainRow> {
  const domain = await domainByName.first(db, { userId, domain: from.domain });
  if (!domain)
    throw domainNotFound(`The domain ${from.domain} is not on this account`, { domain: from.domain });
  // A test key may send from a domain added but not verified (issue 21): its mail never leaves.
  if (domain.status !== 'VERIFIED' && options.allowUnverified !== true) {
    throw domainNotVerified(`The domain ${domain.domain} has not verified SPF and DKIM`, {
      domainId: domain.id,
      status: domain.status,
    });
  }
  const allowed = (JSON.parse(domain.addresses) as string[]).map((a) => `${a}@${domain.domain}`);
  if (
    domain.restrict_senders === 1 &&
    allowed.length > 0 &&
    !allowed.includes(`${from.localPart.toLowerCase()}@${domain.domain}`)
  ) {
    throw invalidFromAddress(`${domain.domain} only sends from ${allowed.join(', ')}`, {
      field: 'from',
      allowed,
    });
  }
  return domain;
}
