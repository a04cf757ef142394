import type { Kysely } from 'kysely';

/**
 * Per-domain one-click unsubscribe (issue 22 item 5): when set, delivery adds a
 * Mailroom-served `List-Unsubscribe` + `List-Unsubscribe-Post` pair (RFC 8058) to
 * messages that carry none of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('unsubscribe_link', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').dropColumn('unsubscribe_link').execute();
}
