import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Every change of a domain's status with its time (issue 19, screen 4: "status
 * history"). A table of its own rather than the audit log: background re-checks change
 * status without an audit entry unless they regress, and the audit log has its own
 * retention. Existing domains get their creation and, when it has moved since, their
 * current status at the best time known (verified_at, else last_checked_at), marked
 * `trigger = 'migration'`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_status_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('checks', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('domain_status_changes_domain')
    .on('domain_status_changes')
    .columns(['domain_id', 'created_at'])
    .execute();
  await sql`
    INSERT INTO domain_status_changes (id, domain_id, user_id, from_status, to_status, trigger, checks, created_at)
    SELECT 'dsc_' || id || '_0', id, user_id, NULL, 'PENDING', 'created', NULL, created_at FROM domains
  `.execute(db);
  await sql`
    INSERT INTO domain_status_changes (id, domain_id, user_id, from_status, to_status, trigger, checks, created_at)
    SELECT 'dsc_' || id || '_1', id, user_id, 'PENDING', status, 'migration', NULL,
           COALESCE(verified_at, last_checked_at, updated_at)
    FROM domains WHERE status <> 'PENDING'
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domain_status_changes').execute();
}
