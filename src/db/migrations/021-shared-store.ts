import type { Kysely } from 'kysely';

/**
 * What every node of a cluster must see (issue 23 item 3), kept in the database:
 *
 * - `raw_messages`: the raw bytes of accepted inbound mail and bounce reports when the
 *   backend is PostgreSQL (src/modules/inbound/raw-database-store.ts). Each row is
 *   inserted in the transaction that commits the job naming it (`db:<id>`), so "250
 *   after a durable commit" needs no file fsync and a crash leaves no orphan. On SQLite
 *   the table stays empty: raw messages remain files under `$DATA_DIR/inbound/`.
 * - `credential_attempts`: the per-IP budget of the credential endpoints and of
 *   submission AUTH failures (src/modules/accounts/credential-attempts.repository.ts), one
 *   row per (scope and key, fixed window), so nodes behind one load balancer share it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('raw_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    // `blob` is bytea on PostgreSQL (migrate()'s DDL plugin, src/db/postgres.ts).
    .addColumn('content', 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The orphan sweep reads old rows only.
  await db.schema.createIndex('raw_messages_created_at').on('raw_messages').column('created_at').execute();
  await db.schema
    .createTable('credential_attempts')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('credential_attempts_pk', ['key', 'window_start'])
    .execute();
  await db.schema
    .createIndex('credential_attempts_window_start')
    .on('credential_attempts')
    .column('window_start')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credential_attempts').execute();
  await db.schema.dropTable('raw_messages').execute();
}
