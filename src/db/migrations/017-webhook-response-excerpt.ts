import type { Kysely } from 'kysely';

/**
 * The first bytes of the receiver's answer per webhook attempt (issue 19, screen 6:
 * "response excerpt"), so "why does my endpoint fail" is answered by what it said.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('response_excerpt', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').dropColumn('response_excerpt').execute();
}
