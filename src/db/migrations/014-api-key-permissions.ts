import type { Kysely } from 'kysely';

/**
 * API key permissions (issue 20): `full_access` (what every key could do, plus managing
 * keys) or `sending_access` (send only), and an optional domain a sending key is held to.
 * Keys that exist keep what they could do: `full_access`. No foreign key on `domain_id`:
 * a key held to a domain that was deleted must keep refusing every other domain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('permission', 'text', (c) => c.notNull().defaultTo('full_access'))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('domain_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('domain_id').execute();
  await db.schema.alterTable('api_keys').dropColumn('permission').execute();
}
