import type { Kysely, Selectable } from 'kysely';
import type { BounceReportsTable, Database } from '../../db/schema';
import type { EmailRow } from '../emails/emails.repository';

export type BounceReportRow = Selectable<BounceReportsTable>;

/** Whether a report with these bytes was processed already. */
export async function isReportProcessed(db: Kysely<Database>, sha256: string): Promise<boolean> {
  const row = await db
    .selectFrom('bounce_reports')
    .select('sha256')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records a report as processed, in the transaction that applies its effects.
 * Returns false when it was recorded before: its effects exist, apply nothing.
 */
export async function insertReport(db: Kysely<Database>, row: BounceReportRow): Promise<boolean> {
  const res = await db
    .insertInto('bounce_reports')
    .values(row)
    .onConflict((oc) => oc.column('sha256').doNothing())
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/**
 * The message a VERP address names, if it was sent from that domain. A tag covers id
 * and domain together, so a tagged address needs nothing more. An untagged one says no
 * more than the Message-ID (both show the email id), so, like findEmailByMessageId,
 * it finds only mail sent by the account that holds the domain VERIFIED.
 */
export async function findEmailOfDomain(
  db: Kysely<Database>,
  by: { readonly emailId: string; readonly domain: string; readonly tagged: boolean },
): Promise<EmailRow | undefined> {
  let query = db
    .selectFrom('emails')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .selectAll('emails')
    .where('emails.id', '=', by.emailId)
    .where('domains.domain', '=', by.domain);
  if (!by.tagged) query = query.where('domains.status', '=', 'VERIFIED');
  return query.executeTakeFirst();
}

/**
 * The message with this Message-ID. Ours are `<email_…@domain>`, unique by their id;
 * the first one sent wins should a client-chosen id ever repeat. With a scope, only
 * mail sent from one of those domains by the account holding it VERIFIED (a name may
 * sit on several accounts, verified on one: docs/domains.md); null is the operator's
 * unscoped lookup.
 */
export async function findEmailByMessageId(
  db: Kysely<Database>,
  messageId: string,
  scope: readonly string[] | null,
): Promise<EmailRow | undefined> {
  if (scope === null) {
    return db
      .selectFrom('emails')
      .selectAll()
      .where('message_id', '=', messageId)
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst();
  }
  if (scope.length === 0) return undefined;
  return db
    .selectFrom('emails')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .selectAll('emails')
    .where('emails.message_id', '=', messageId)
    .where('domains.domain', 'in', [...scope])
    .where('domains.status', '=', 'VERIFIED')
    .orderBy('emails.id', 'asc')
    .limit(1)
    .executeTakeFirst();
}
