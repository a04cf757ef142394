import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * `mail_emails_last_hour{status}` counts live mail only, as the statistics do since
 * migration 011: a developer running the simulator's bounces with a test key must not
 * fire the operator's bounce-rate alert (docs/operations.md). The metric's covering
 * index (005's `emails_created_status`, read by nothing else) becomes a partial one
 * over live mail, so the read stays covered and test sends no longer write it. The
 * query names `mode = 'live'` as a literal: SQLite uses a partial index only when the
 * query's terms match its WHERE, which a bound parameter cannot show.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_created_status').execute();
  await db.schema
    .createIndex('emails_created_live')
    .on('emails')
    .columns(['created_at', 'status'])
    .where(sql.ref('mode'), '=', sql.lit('live'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_created_live').execute();
  await db.schema
    .createIndex('emails_created_status')
    .on('emails')
    .columns(['created_at', 'status'])
    .execute();
}
