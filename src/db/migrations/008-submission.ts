import type { Kysely } from 'kysely';

/**
 * SMTP submission (issue 10): a message submitted over SMTP is kept as the client
 * sent it (header-cleaned), and the worker hands those bytes to the MTA instead
 * of building MIME. One row per `emails.source = 'smtp'` message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_raw_messages')
    .addColumn('email_id', 'text', (c) => c.primaryKey().references('emails.id').onDelete('cascade'))
    .addColumn('content', 'blob', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_raw_messages').execute();
}
