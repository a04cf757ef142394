import type { Kysely } from 'kysely';
import type { CapturedMessagesTable, Database } from '../../db/schema';

/** The built-in capture of test mail (migration 011): the signed message, kept CAPTURE_RETENTION_DAYS. */

export async function insertCaptured(trx: Kysely<Database>, row: CapturedMessagesTable): Promise<void> {
  // A re-run of an interrupted hand-off captures the same message again: the newer copy wins.
  await trx
    .insertInto('captured_messages')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('email_id')
        .doUpdateSet({ raw: row.raw, size_bytes: row.size_bytes, captured_at: row.captured_at }),
    )
    .execute();
}

export interface CapturedInfo {
  readonly size_bytes: number;
  readonly captured_at: string;
}

/** When and how large the capture of one of the account's messages is (no bytes). */
export async function findCapturedInfo(
  db: Kysely<Database>,
  userId: string,
  emailId: string,
): Promise<CapturedInfo | undefined> {
  return db
    .selectFrom('captured_messages')
    .select(['size_bytes', 'captured_at'])
    .where('user_id', '=', userId)
    .where('email_id', '=', emailId)
    .executeTakeFirst();
}

/** The captured message's bytes, as signed; undefined when not captured (or pruned). */
export async function findCapturedRaw(
  db: Kysely<Database>,
  userId: string,
  emailId: string,
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('captured_messages')
    .select('raw')
    .where('user_id', '=', userId)
    .where('email_id', '=', emailId)
    .executeTakeFirst();
  return row?.raw;
}

/** Deletes at most `limit` captures older than `before`; the count deleted. */
export async function deleteCapturedBefore(
  db: Kysely<Database>,
  before: string,
  limit: number,
): Promise<number> {
  const res = await db
    .deleteFrom('captured_messages')
    .where(
      'email_id',
      'in',
      db.selectFrom('captured_messages').select('email_id').where('captured_at', '<', before).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
