// Rows as the send pipeline and the worker leave them, written straight to a database
// built by the real migrations: an account (user + domain) and messages with their
// recipients, attachments, quota rows and `queued` event. Shared by the delivery, stats,
// abuse and bounce-intake tests.
import type { Kysely } from 'kysely';
import type {
  Database,
  DomainStatus,
  EmailStatus,
  InboundMessagesTable,
  RecipientType,
} from '../../src/db/schema';
import { minuteOf } from '../../src/modules/quota/quota-limits';
import { newId } from '../../src/shared/ids';

type Db = Kysely<Database>;

export interface FixtureAccount {
  readonly userId: string;
  readonly domainId: string;
  /** Unset for accounts made through the API, whose tests know their domain themselves. */
  readonly domain?: string;
}

export interface Account extends FixtureAccount {
  readonly domain: string;
}

export interface AccountOptions {
  /** VERIFIED unless told otherwise. */
  readonly domainStatus?: DomainStatus;
  readonly createdAt?: string;
  /** Default: named after the user, so that accounts never collide. */
  readonly domain?: string;
}

/** A user with one domain. */
export async function insertAccount(db: Db, options: AccountOptions = {}): Promise<Account> {
  const createdAt = options.createdAt ?? new Date().toISOString();
  const domainStatus = options.domainStatus ?? 'VERIFIED';
  const userId = newId('usr');
  const domainId = newId('dom');
  const domain = options.domain ?? `${userId.slice(4).toLowerCase()}.example.test`;
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `owner-${userId}@example.net`,
      name: 'Owner',
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
      domain,
      status: domainStatus,
      dkim_selector: 'mr1',
      dkim_public_key: 'AAAA',
      dkim_private_key_encrypted: 'sealed',
      receive_enabled: 0,
      inbound_label: 'inbound',
      addresses: '[]',
      restrict_senders: 0,
      unsubscribe_link: 0,
      verified_at: domainStatus === 'VERIFIED' ? createdAt : null,
      last_checked_at: null,
      next_check_at: null,
      lookup_failures: 0,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  return { userId, domainId, domain };
}

export interface TestAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly cid?: string;
  readonly content: Buffer;
}

export interface TestEmail {
  /** Default `queued`, as the API writes a message. */
  readonly status?: EmailStatus;
  /** Default now. */
  readonly createdAt?: string;
  readonly to?: readonly string[];
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  /** Recipients with statuses of their own (instead of to/cc/bcc, which take the message's). */
  readonly recipients?: readonly { readonly address: string; readonly status: EmailStatus }[];
  /** Delivery attempts; default 1 unless the message is still queued. */
  readonly attempts?: number;
  readonly html?: string | null;
  readonly text?: string | null;
  readonly headers?: Record<string, string>;
  readonly metadata?: Record<string, unknown>;
  /** Default a new id (made now, whatever createdAt says). */
  readonly id?: string;
  /** Default `Your receipt`. */
  readonly subject?: string;
  readonly tags?: Record<string, string>;
  readonly replyTo?: readonly string[];
  readonly attachments?: readonly TestAttachment[];
  /** Default true; false for a test that reads the message's timeline from empty. */
  readonly queuedEvent?: boolean;
}

/**
 * One message with its recipients (one fresh address unless told), attachments, quota
 * ledger and bucket rows, and the `queued` event the accept side writes (unless told not
 * to). Returns the id.
 */
export async function insertEmail(db: Db, account: FixtureAccount, e: TestEmail = {}): Promise<string> {
  const id = e.id ?? newId('email');
  const status = e.status ?? 'queued';
  const at = e.createdAt ?? new Date().toISOString();
  const domain = account.domain ?? 'example.test';
  const recipients: { address: string; type: RecipientType; status: EmailStatus }[] = e.recipients
    ? e.recipients.map((r) => ({ address: r.address, type: 'to', status: r.status }))
    : [
        ...(e.to ?? [`r-${id.slice(-8)}@example.org`]).map((address) => ({
          address,
          type: 'to' as const,
          status,
        })),
        ...(e.cc ?? []).map((address) => ({ address, type: 'cc' as const, status })),
        ...(e.bcc ?? []).map((address) => ({ address, type: 'bcc' as const, status })),
      ];
  await db
    .insertInto('emails')
    .values({
      id,
      user_id: account.userId,
      domain_id: account.domainId,
      api_key_id: null,
      source: 'api',
      from_address: `app@${domain}`,
      from_header: `App <app@${domain}>`,
      subject: e.subject ?? 'Your receipt',
      reply_to: e.replyTo ? JSON.stringify(e.replyTo) : null,
      headers: e.headers ? JSON.stringify(e.headers) : null,
      tags: e.tags ? JSON.stringify(e.tags) : null,
      metadata: e.metadata ? JSON.stringify(e.metadata) : null,
      html: e.html === undefined ? '<p>Hello</p>' : e.html,
      text: e.text === undefined ? 'Hello' : e.text,
      message_id: `<${id}@${domain}>`,
      size_bytes: 100,
      status,
      attempts: e.attempts ?? (status === 'queued' ? 0 : 1),
      smtp_response: null,
      scheduled_at: null,
      created_at: at,
      updated_at: at,
      sent_at: null,
      delivered_at: null,
    })
    .execute();
  for (const r of recipients) {
    await db
      .insertInto('email_recipients')
      .values({
        id: newId('rcpt'),
        email_id: id,
        user_id: account.userId,
        address: r.address,
        type: r.type,
        status: r.status,
        smtp_response: null,
        updated_at: at,
      })
      .execute();
  }
  let position = 0;
  for (const a of e.attachments ?? []) {
    await db
      .insertInto('email_attachments')
      .values({
        id: newId('att'),
        email_id: id,
        position: position++,
        filename: a.filename,
        content_type: a.contentType,
        cid: a.cid ?? null,
        content: a.content,
        size_bytes: a.content.length,
      })
      .execute();
  }
  await insertQuotaRows(db, account, id, recipients.length, at);
  if (e.queuedEvent === false) return id;
  await db
    .insertInto('email_events')
    .values({
      id: newId('evt'),
      email_id: id,
      user_id: account.userId,
      recipient: null,
      type: 'queued',
      message: 'accepted',
      created_at: at,
    })
    .execute();
  return id;
}

/** What the send pipeline counts quotas in (src/modules/quota/quota.ts). */
async function insertQuotaRows(db: Db, account: FixtureAccount, emailId: string, count: number, at: string) {
  await db
    .insertInto('quota_ledger')
    .values({
      id: newId('quo'),
      user_id: account.userId,
      domain_id: account.domainId,
      api_key_id: null,
      email_id: emailId,
      count,
      created_at: at,
    })
    .execute();
  for (const [scope, scopeId] of [
    ['user', account.userId],
    ['domain', account.domainId],
  ] as const) {
    await db
      .insertInto('quota_buckets')
      .values({ scope, scope_id: scopeId, minute: minuteOf(Date.parse(at)), count })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'scope_id', 'minute'])
          .doUpdateSet((eb) => ({ count: eb('quota_buckets.count', '+', count) })),
      )
      .execute();
  }
}

export async function emailRow(db: Db, id: string) {
  return db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function recipientRows(db: Db, id: string) {
  return db.selectFrom('email_recipients').selectAll().where('email_id', '=', id).orderBy('id').execute();
}

export async function eventRows(db: Db, id: string) {
  return db.selectFrom('email_events').selectAll().where('email_id', '=', id).orderBy('id').execute();
}

export async function outboxRows(db: Db, id: string) {
  const rows = await db.selectFrom('outbox').selectAll().where('email_id', '=', id).orderBy('id').execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.payload) as Record<string, unknown> }));
}

/** An `inbound_messages` row with every column filled; tests override what they look at. */
export function inboundMessageRow(
  row: Pick<InboundMessagesTable, 'user_id' | 'received_at'> & Partial<InboundMessagesTable>,
): InboundMessagesTable {
  const id = row.id ?? newId('inb');
  return {
    id,
    domain_id: null,
    raw_path: `inbound/${id}.eml`,
    raw_sha256: '0'.repeat(64),
    size: 10,
    mail_from: 'x@example.org',
    rcpt_to: '[]',
    remote_ip: null,
    helo: null,
    from_address: null,
    from_header: null,
    to_addresses: '[]',
    cc_addresses: '[]',
    subject: null,
    message_id: null,
    date: null,
    text: null,
    html: null,
    headers: '[]',
    spf_result: null,
    dkim_result: null,
    dmarc_result: null,
    authenticated: 0,
    attachment_count: 0,
    attachments_dropped: 0,
    read: 0,
    unparsed_reason: null,
    created_at: row.received_at,
    ...row,
  };
}
