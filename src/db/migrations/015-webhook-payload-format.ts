import type { Kysely } from 'kysely';

/**
 * The body format of an endpoint's deliveries (issue 20): `mailroom` (the spec's payload)
 * or `resend` (Resend's `{type, created_at, data}`), so Resend receivers work unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhooks')
    .addColumn('payload_format', 'text', (c) => c.notNull().defaultTo('mailroom'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('payload_format').execute();
}
