import type { Kysely } from 'kysely';

/**
 * Bounce and complaint intake (issue 5). `bounce_reports` holds one row per report
 * processed, keyed by the SHA-256 of its bytes: the row is written in the same
 * transaction as the report's effects, so a report delivered twice (the MTA and the
 * internal endpoint, a retried job, a worker that died before completing the job)
 * has its effects exactly once. It also keeps what the report was read as, since the
 * raw file is deleted once processed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bounce_reports')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('email_id', 'text')
    .addColumn('matched_by', 'text')
    .addColumn('original_message_id', 'text')
    .addColumn('results', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bounce_reports_email')
    .on('bounce_reports')
    .columns(['email_id', 'processed_at'])
    .execute();
  // Reports that quote only the original Message-ID are matched on it (a report with no VERP address).
  await db.schema.createIndex('emails_message_id').on('emails').column('message_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_message_id').execute();
  await db.schema.dropTable('bounce_reports').execute();
}
