import type { Kysely } from 'kysely';

/**
 * The dashboard's email list filters (issue 19) by tag and free text: substring tests that
 * no index can seek. (user_id, id) becomes (user_id, id, subject, tags): still the index
 * every newest-first page of an account walks, and now SQLite evaluates `subject LIKE` and
 * `tags LIKE` on the index entry, reading only the rows that match instead of every row
 * of the account (each a few KB with its html): a no-match search over 10,000 messages
 * went from ~70 ms to ~3 ms (bench scenario dashboard-list, bench/README.md). The entries grow by the
 * subject and tags, a small cost on each accepted message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_user_id').execute();
  await db.schema
    .createIndex('emails_user_list')
    .on('emails')
    .columns(['user_id', 'id', 'subject', 'tags'])
    .execute();
  // The same for a status filter combined with tag or text (the status index is then the walk).
  await db.schema.dropIndex('emails_user_status').execute();
  await db.schema
    .createIndex('emails_user_status_list')
    .on('emails')
    .columns(['user_id', 'status', 'id', 'subject', 'tags'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_user_status_list').execute();
  await db.schema
    .createIndex('emails_user_status')
    .on('emails')
    .columns(['user_id', 'status', 'id'])
    .execute();
  await db.schema.dropIndex('emails_user_list').execute();
  await db.schema.createIndex('emails_user_id').on('emails').columns(['user_id', 'id']).execute();
}
