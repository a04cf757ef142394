import type { Kysely, Selectable } from 'kysely';
import type { BounceReportsTable, Database } from '../../db/schema';
import type { EmailRow } from '../emails/delivery.repository';

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

export async function findReport(db: Kysely<Database>, sha256: string): Promise<BounceReportRow | undefined> {
  return db.selectFrom('bounce_reports').selectAll().where('sha256', '=', sha256).executeTakeFirst();
}

/**
 * The message with this Message-ID. Ours are `<email_…@domain>`, unique by their id;
 * the first one sent wins should a client-chosen id ever repeat.
 */
export async function findEmailByMessageId(
  db: Kysely<Database>,
  messageId: string,
): Promise<EmailRow | undefined> {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}
