import type { Kysely } from 'kysely';

/**
 * How each delivery attempt's SMTP session was protected (issue 22 item 3): the TLS
 * version and cipher the remote MX negotiated, `plaintext` when it offered no STARTTLS,
 * NULL for entries that are not a delivery attempt (or no session was opened).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_events').addColumn('tls', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_events').dropColumn('tls').execute();
}
