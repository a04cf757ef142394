import type { Kysely } from 'kysely';

/**
 * Sign-up by invitation (SIGNUP_MODE, docs/operations.md). `invitations`: one row per
 * invitation an operator created, bound to an address, stored as the SHA-256 of its token
 * (shown once), consumed (`accepted_at`) in the transaction that creates the account.
 * `first_account`: at most one row (id `first`), written in the transaction that creates
 * the first account of an empty install without an invitation; its primary key makes two
 * concurrent first registrations end with exactly one account on either engine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_user_id', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createTable('first_account')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('first_account').execute();
  await db.schema.dropTable('invitations').execute();
}
