import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/** Sending domains (issue 3). Portable DDL, as in 001: partial indexes exist in SQLite and PostgreSQL alike. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('dkim_selector', 'text', (c) => c.notNull())
    .addColumn('dkim_public_key', 'text', (c) => c.notNull())
    .addColumn('dkim_private_key_encrypted', 'text', (c) => c.notNull())
    .addColumn('receive_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inbound_label', 'text', (c) => c.notNull().defaultTo('inbox'))
    .addColumn('addresses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('restrict_senders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verified_at', 'text')
    .addColumn('last_checked_at', 'text')
    .addColumn('next_check_at', 'text')
    .addColumn('lookup_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // DOMAIN_ALREADY_EXISTS is per account; another account may add the same name.
  await db.schema
    .createIndex('domains_user_domain')
    .unique()
    .on('domains')
    .columns(['user_id', 'domain'])
    .execute();
  // ...but only one account at a time holds it verified (docs/domains.md, "One name, several accounts").
  await db.schema
    .createIndex('domains_verified_name')
    .unique()
    .on('domains')
    .column('domain')
    .where(sql.ref('status'), '=', 'VERIFIED')
    .execute();
  await db.schema.createIndex('domains_recheck').on('domains').columns(['status', 'next_check_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domains').execute();
}
