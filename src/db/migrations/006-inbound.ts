import type { Kysely } from 'kysely';

/**
 * Inbound mail (issue 6): one row per (accepted message, receiving domain), its
 * attachments (bytes in the database: at most 25 per message, each bounded by
 * EMAIL_MAX_SIZE_BYTES, deleted with the message in one statement). The raw
 * message stays a file under `$DATA_DIR/inbound/` (`raw_path`), owned by this row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbound_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A deleted domain keeps its received mail readable.
    .addColumn('domain_id', 'text', (c) => c.references('domains.id').onDelete('set null'))
    .addColumn('raw_path', 'text', (c) => c.notNull().unique())
    .addColumn('raw_sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('mail_from', 'text', (c) => c.notNull())
    .addColumn('rcpt_to', 'text', (c) => c.notNull())
    .addColumn('remote_ip', 'text')
    .addColumn('helo', 'text')
    .addColumn('from_address', 'text')
    .addColumn('from_header', 'text')
    .addColumn('to_addresses', 'text', (c) => c.notNull())
    .addColumn('cc_addresses', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('message_id', 'text')
    .addColumn('date', 'text')
    .addColumn('text', 'text')
    .addColumn('html', 'text')
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('spf_result', 'text')
    .addColumn('dkim_result', 'text')
    .addColumn('dmarc_result', 'text')
    .addColumn('authenticated', 'integer', (c) => c.notNull())
    .addColumn('attachment_count', 'integer', (c) => c.notNull())
    .addColumn('attachments_dropped', 'integer', (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The list: newest first per account, optionally unread only or one domain.
  await db.schema.createIndex('inbound_user_id').on('inbound_messages').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('inbound_user_domain')
    .on('inbound_messages')
    .columns(['user_id', 'domain_id', 'id'])
    .execute();

  await db.schema
    .createTable('inbound_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('inbound_id', 'text', (c) => c.notNull().references('inbound_messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content_id', 'text')
    .addColumn('disposition', 'text')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', 'blob', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbound_attachments_message')
    .on('inbound_attachments')
    .columns(['inbound_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('inbound_attachments').execute();
  await db.schema.dropTable('inbound_messages').execute();
}
