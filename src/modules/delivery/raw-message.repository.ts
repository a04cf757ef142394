import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** The stored message of an SMTP submission, for the worker's hand-off. */
export async function findRawMessage(db: Kysely<Database>, emailId: string): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('email_raw_messages')
    .select('content')
    .where('email_id', '=', emailId)
    .executeTakeFirst();
  return row === undefined ? undefined : Buffer.from(row.content);
}
