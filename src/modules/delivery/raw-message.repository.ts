import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema';

/** The stored message of an SMTP submission, for the worker's hand-off. */
export async function findRawMessage(db: Kysely<Database>, emailId: string): Promise<Buffer | undefined> {
  const result = await sql<{
    content: Buffer;
  }>`SELECT content FROM email_raw_messages WHERE email_id = ${emailId}`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : Buffer.from(row.content);
}
