import type { Kysely } from 'kysely';
import type { Database, RawMessagesTable } from '../../db/schema';

/** `raw_messages` (migration 021): raw bytes on PostgreSQL, by id (the `db:<id>` reference). */

export async function insertRawMessage(trx: Kysely<Database>, row: RawMessagesTable): Promise<void> {
  // A row that crossed to a writer thread arrives as a Uint8Array: drivers want a Buffer.
  const bytes: Uint8Array = row.content;
  const content = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await trx
    .insertInto('raw_messages')
    .values({ ...row, content })
    .execute();
}

export async function findRawContent(db: Kysely<Database>, id: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('raw_messages').select('content').where('id', '=', id).executeTakeFirst();
  return row?.content;
}

export async function deleteRawRow(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('raw_messages').where('id', '=', id).execute();
}
