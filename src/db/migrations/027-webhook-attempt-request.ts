import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * What each webhook attempt sent (issue 29 item 10: the dashboard shows each attempt's request):
 * the headers, the signatures among them, and the body, so "what did my endpoint get" is
 * answered exactly, whatever the payload format and after the event's outbox row is pruned.
 * NULL for attempts made before this migration. `mode` marks attempts of test-mode mail and
 * of `webhook.test` (issue 29 item 6); `redelivery_of` names the delivery a redelivery repeats.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('request_headers', 'text').execute();
  await db.schema.alterTable('webhook_attempts').addColumn('request_body', 'text').execute();
  await db.schema
    .alterTable('webhook_attempts')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
    .execute();
  await db.schema.alterTable('webhook_attempts').addColumn('redelivery_of', 'text').execute();
  // Earlier attempts: a test event by its name, test mail by its payload's `"mode":"test"`
  // (JSON.stringify writes it without spaces; the same text inside a string value is escaped).
  await sql`update webhook_attempts set mode = 'test'
    where event = 'webhook.test'
       or outbox_id in (select id from outbox where payload like ${'%"mode":"test"%'})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['redelivery_of', 'mode', 'request_body', 'request_headers']) {
    await db.schema.alterTable('webhook_attempts').dropColumn(column).execute();
  }
}
