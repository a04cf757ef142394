import type { Kysely } from 'kysely';

/**
 * Why an accepted inbound message could not be parsed (too many MIME parts, a header
 * block over the limit, mailparser failing, the raw bytes gone): the message is stored
 * with what is known (its envelope and raw bytes) instead of ending as a dead job, and
 * this says why its parsed fields are empty. NULL for a message parsed normally.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inbound_messages').addColumn('unparsed_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inbound_messages').dropColumn('unparsed_reason').execute();
}
