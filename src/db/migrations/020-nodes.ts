import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Nodes of a cluster (issue 23 items 3 and 4). `nodes`: one row per NODE_NAME, its
 * roles and heartbeat, so the cluster sweep can tell a node that is gone.
 * `emails.mta_node`: the node whose MTA took the message's current hand-off (its
 * Haraka queue is on that node's disk), null before the hand-off and for mail no MTA
 * saw (test mode, the simulator). `email_events.node`: the node that wrote the
 * entry (the worker's hand-off, the MTA's delivery reports), shown as `events[].node`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('nodes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('emails').addColumn('mta_node', 'text').execute();
  // Partial: the api's insert of a new message (mta_node null) never touches it.
  await db.schema
    .createIndex('emails_mta_node')
    .on('emails')
    .columns(['mta_node', 'status'])
    .where(sql.ref('mta_node'), 'is not', null)
    .execute();
  await db.schema.alterTable('email_events').addColumn('node', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_events').dropColumn('node').execute();
  await db.schema.dropIndex('emails_mta_node').execute();
  await db.schema.alterTable('emails').dropColumn('mta_node').execute();
  await db.schema.dropTable('nodes').execute();
}
