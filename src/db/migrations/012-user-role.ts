import type { Kysely } from 'kysely';

/**
 * An account's role (issue 19): `user`, or `operator` — who may use the session-authenticated
 * operator endpoints (/v1/operator/…) and the dashboard's operator screens. Every existing
 * account is a `user`; `ctl accounts grant-operator` makes an operator (docs/operations.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('role').execute();
}
