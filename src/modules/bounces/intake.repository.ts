import type { Kysely, Selectable } from 'kysely';
import type { BounceReportsTable, Database } from '../../db/schema';
import type { EmailRow } from '../emails';

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
 * The message a VERP address names, if it was sent from that domain. Email ids are
 * unique, so the id names one message, and the domain (the return-path host the report
 * was sent to, within its scope) keeps a report to one domain off every other domain's
 * mail. A tag, on mail in flight from earlier versions, was verified already.
 */
export async function findEmailOfDomain(
  db: Kysely<Database>,
  by: { readonly emailId: string; readonly domain: string },
): Promise<EmailRow | undefined> {
  return db
    .selectFrom('emails')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .selectAll('emails')
    .where('emails.id', '=', by.emailId)
    .where('domains.domain', '=', by.domain)
    .executeTakeFirst();
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
