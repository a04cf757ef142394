import type { Kysely } from 'kysely';

/**
 * Webhooks (issue 7): endpoints per account and their delivery attempt log.
 * Deliveries themselves are jobs on the `webhook-delivery` queue; the outbox
 * (003) is what they are fanned out from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    // Sealed by shared/seal under the context `webhook:<id>`; the clear secret is never stored.
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_success_at', 'text')
    .addColumn('last_failure_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Every read is per account; the fan-out reads the enabled endpoints of a batch of accounts.
  await db.schema.createIndex('webhooks_user').on('webhooks').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('outbox_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('succeeded', 'integer', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The detail view reads an endpoint's newest attempts (ids sort by time).
  await db.schema
    .createIndex('webhook_attempts_webhook')
    .on('webhook_attempts')
    .columns(['webhook_id', 'id'])
    .execute();
  // Failures in the last hour across endpoints (mail_webhook_failures_last_hour).
  await db.schema
    .createIndex('webhook_attempts_created')
    .on('webhook_attempts')
    .columns(['created_at', 'succeeded'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhooks').execute();
}
