import type { Kysely } from 'kysely';

/**
 * Outbound mail (issue 4): messages, their recipients and timeline, attachments,
 * the quota ledger, idempotency keys, suppressions and the webhook outbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No cascade: a domain with sending history cannot be deleted (DOMAIN_HAS_HISTORY).
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('api_key_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('from_header', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('headers', 'text')
    .addColumn('tags', 'text')
    .addColumn('metadata', 'text')
    .addColumn('html', 'text')
    .addColumn('text', 'text')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('smtp_response', 'text')
    .addColumn('scheduled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('delivered_at', 'text')
    .execute();
  // Lists page newest-first by id (ids sort by creation), per account, optionally by status or domain.
  await db.schema.createIndex('emails_user_id').on('emails').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('emails_user_status')
    .on('emails')
    .columns(['user_id', 'status', 'id'])
    .execute();
  await db.schema.createIndex('emails_domain').on('emails').columns(['domain_id', 'id']).execute();
  await db.schema
    .createIndex('emails_user_created')
    .on('emails')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('email_recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('smtp_response', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('email_recipients_email_address')
    .unique()
    .on('email_recipients')
    .columns(['email_id', 'address'])
    .execute();
  await db.schema
    .createIndex('email_recipients_user_address')
    .on('email_recipients')
    .columns(['user_id', 'address', 'email_id'])
    .execute();

  await db.schema
    .createTable('email_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_events_email').on('email_events').columns(['email_id', 'id']).execute();

  await db.schema
    .createTable('email_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('cid', 'text')
    .addColumn('content', 'blob', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('email_attachments_email')
    .on('email_attachments')
    .columns(['email_id', 'position'])
    .execute();

  // One row per accepted message: quotas sum `count` (recipients) over rolling windows per scope.
  await db.schema
    .createTable('quota_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('email_id', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quota_ledger_user')
    .on('quota_ledger')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('quota_ledger_domain')
    .on('quota_ledger')
    .columns(['domain_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('quota_ledger_key')
    .on('quota_ledger')
    .columns(['api_key_id', 'created_at'])
    .execute();

  // Per-minute counters per scope: quota checks sum at most 60 (hour) or 1,440 (day) rows,
  // whatever the volume, instead of one row per message.
  await db.schema
    .createTable('quota_buckets')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_buckets_pk', ['scope', 'scope_id', 'minute'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();

  await db.schema
    .createTable('suppressions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('source_email_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('suppressions_user_email')
    .unique()
    .on('suppressions')
    .columns(['user_id', 'email'])
    .execute();

  // Webhook events waiting to be fanned out to subscribed endpoints (issue 7 dispatches them).
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('email_id', 'text')
    .addColumn('recipient', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_pending').on('outbox').columns(['dispatched_at', 'id']).execute();
  await db.schema.createIndex('outbox_user').on('outbox').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'outbox',
    'suppressions',
    'idempotency_keys',
    'quota_buckets',
    'quota_ledger',
    'email_attachments',
    'email_events',
    'email_recipients',
    'emails',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
