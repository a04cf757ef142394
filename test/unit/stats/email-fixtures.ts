// Rows as the send pipeline and the worker leave them, written straight to a database
// built by the real migrations: fixtures for statistics and abuse signals.
import { minuteOf } from '../../../src/modules/quota/quota-limits';
import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../../../src/db/schema';
import { newId } from '../../../src/shared/ids';

export interface FixtureAccount {
  readonly userId: string;
  readonly domainId: string;
}

export async function seedAccount(
  db: Kysely<Database>,
  createdAt = '2024-01-01T00:00:00.000Z',
): Promise<FixtureAccount> {
  const userId = newId('usr');
  const domainId = newId('dom');
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `${userId}@example.test`,
      name: 'Fixture',
      password_hash: 'x',
      status: 'ACTIVE',
      suspended_at: null,
      suspension_reason: null,
      emails_per_hour: null,
      emails_per_day: null,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  await db
    .insertInto('domains')
    .values({
      id: domainId,
      user_id: userId,
      domain: `${userId.slice(4)}.example.test`,
      status: 'VERIFIED',
      dkim_selector: 's1',
      dkim_public_key: 'p',
      dkim_private_key_encrypted: 'k',
      receive_enabled: 0,
      inbound_label: 'inbox',
      addresses: '[]',
      restrict_senders: 0,
      verified_at: createdAt,
      last_checked_at: null,
      next_check_at: null,
      lookup_failures: 0,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  return { userId, domainId };
}

export interface FixtureEmail {
  readonly status: EmailStatus;
  readonly createdAt: string;
  /** Recipient addresses with their statuses; default one recipient with the message's status. */
  readonly recipients?: readonly { readonly address: string; readonly status: EmailStatus }[];
  /** Delivery attempts; default 1 unless the message is still queued. */
  readonly attempts?: number;
}

/** One message with its recipients and its quota ledger row. Returns the id. */
export async function insertEmail(
  db: Kysely<Database>,
  account: FixtureAccount,
  e: FixtureEmail,
): Promise<string> {
  const id = newId('email');
  const recipients = e.recipients ?? [{ address: `r-${id.slice(-8)}@example.org`, status: e.status }];
  await db
    .insertInto('emails')
    .values({
      id,
      user_id: account.userId,
      domain_id: account.domainId,
      api_key_id: null,
      source: 'api',
      from_address: 'a@example.test',
      from_header: 'a@example.test',
      subject: 'fixture',
      message_id: `<${id}@example.test>`,
      size_bytes: 10,
      status: e.status,
      attempts: e.attempts ?? (e.status === 'queued' ? 0 : 1),
      created_at: e.createdAt,
      updated_at: e.createdAt,
    })
    .execute();
  await db
    .insertInto('email_recipients')
    .values(
      recipients.map((r) => ({
        id: newId('rcpt'),
        email_id: id,
        user_id: account.userId,
        address: r.address,
        type: 'to' as const,
        status: r.status,
        updated_at: e.createdAt,
      })),
    )
    .execute();
  await db
    .insertInto('quota_ledger')
    .values({
      id: newId('quo'),
      user_id: account.userId,
      domain_id: account.domainId,
      api_key_id: null,
      email_id: id,
      count: recipients.length,
      created_at: e.createdAt,
    })
    .execute();
  // What the send pipeline counts quotas in (src/modules/quota/quota.ts).
  for (const [scope, scopeId] of [
    ['user', account.userId],
    ['domain', account.domainId],
  ] as const) {
    await db
      .insertInto('quota_buckets')
      .values({
        scope,
        scope_id: scopeId,
        minute: minuteOf(Date.parse(e.createdAt)),
        count: recipients.length,
      })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'scope_id', 'minute'])
          .doUpdateSet((eb) => ({ count: eb('quota_buckets.count', '+', recipients.length) })),
      )
      .execute();
  }
  return id;
}
