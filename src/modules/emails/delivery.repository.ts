import type { Kysely, Selectable } from 'kysely';
import type {
  Database,
  DomainStatus,
  EmailAttachmentsTable,
  EmailRecipientsTable,
  EmailsTable,
  EmailStatus,
} from '../../db/schema';

/**
 * Reads and writes of the delivery side (worker): a message, its recipients and
 * attachments as the send and outcome jobs need them. Writes that depend on the
 * state read before them carry that state as a guard and report whether they
 * applied, so a concurrent writer is noticed instead of overwritten.
 */

export type EmailRow = Selectable<EmailsTable>;
export type RecipientRow = Selectable<EmailRecipientsTable>;
export type AttachmentRow = Selectable<EmailAttachmentsTable>;

export interface EmailForSend extends EmailRow {
  readonly user_status: 'ACTIVE' | 'SUSPENDED';
  /** The sending domain's name, for the VERP envelope sender. */
  readonly domain_name: string;
  readonly domain_status: DomainStatus;
}

/** The message with what re-validation needs: its account's and domain's current status. */
export async function findEmailForSend(
  db: Kysely<Database>,
  emailId: string,
): Promise<EmailForSend | undefined> {
  return db
    .selectFrom('emails')
    .innerJoin('users', 'users.id', 'emails.user_id')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .selectAll('emails')
    .select([
      'users.status as user_status',
      'domains.domain as domain_name',
      'domains.status as domain_status',
    ])
    .where('emails.id', '=', emailId)
    .executeTakeFirst();
}

export async function findEmail(db: Kysely<Database>, emailId: string): Promise<EmailRow | undefined> {
  return db.selectFrom('emails').selectAll().where('id', '=', emailId).executeTakeFirst();
}

/** In insertion order (ids sort by creation): to, cc, bcc as the API wrote them. */
export async function listRecipients(db: Kysely<Database>, emailId: string): Promise<RecipientRow[]> {
  return db
    .selectFrom('email_recipients')
    .selectAll()
    .where('email_id', '=', emailId)
    .orderBy('id', 'asc')
    .execute();
}

export async function findRecipient(
  db: Kysely<Database>,
  emailId: string,
  address: string,
): Promise<RecipientRow | undefined> {
  return db
    .selectFrom('email_recipients')
    .selectAll()
    .where('email_id', '=', emailId)
    .where('address', '=', address)
    .executeTakeFirst();
}

/** The recipients as the status machine sees them (delivery-status `aggregate`). */
export async function recipientStates(
  db: Kysely<Database>,
  emailId: string,
): Promise<{ status: EmailStatus; smtpResponse: string | null; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('email_recipients')
    .select(['status', 'smtp_response', 'updated_at'])
    .where('email_id', '=', emailId)
    .orderBy('id', 'asc')
    .execute();
  return rows.map((r) => ({ status: r.status, smtpResponse: r.smtp_response, updatedAt: r.updated_at }));
}

export async function listAttachments(db: Kysely<Database>, emailId: string): Promise<AttachmentRow[]> {
  return db
    .selectFrom('email_attachments')
    .selectAll()
    .where('email_id', '=', emailId)
    .orderBy('position', 'asc')
    .execute();
}

/**
 * Counts a new hand-off attempt and marks the message `processing`, provided it
 * is still in the status and attempt count the caller read.
 */
export async function startAttempt(
  db: Kysely<Database>,
  guard: { readonly emailId: string; readonly status: EmailStatus; readonly attempts: number },
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('emails')
    .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), updated_at: at }))
    .where('id', '=', guard.emailId)
    .where('status', '=', guard.status)
    .where('attempts', '=', guard.attempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface EmailUpdate {
  readonly status: EmailStatus;
  /** Left as it is when undefined. */
  readonly smtpResponse?: string | null | undefined;
  readonly sentAt?: string | undefined;
  /** Written only while the message has none: the first delivery counts. */
  readonly deliveredAt?: string | undefined;
}

/**
 * Writes the message's state. With `expect`, only while its status and attempt
 * count are still those (the attempt that is writing has not been overtaken).
 */
export async function updateEmail(
  db: Kysely<Database>,
  emailId: string,
  update: EmailUpdate,
  at: string,
  expect?: { readonly status: EmailStatus; readonly attempts: number },
): Promise<boolean> {
  let q = db
    .updateTable('emails')
    .set((eb) => ({
      status: update.status,
      updated_at: at,
      ...(update.smtpResponse !== undefined ? { smtp_response: update.smtpResponse } : {}),
      ...(update.sentAt !== undefined ? { sent_at: update.sentAt } : {}),
      ...(update.deliveredAt !== undefined
        ? { delivered_at: eb.fn.coalesce('delivered_at', eb.val(update.deliveredAt)) }
        : {}),
    }))
    .where('id', '=', emailId);
  if (expect) q = q.where('status', '=', expect.status).where('attempts', '=', expect.attempts);
  const result = await q.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves the message's recipients that are in one of `from` to `to`; returns the addresses moved. */
export async function moveRecipients(
  db: Kysely<Database>,
  emailId: string,
  move: {
    readonly from: readonly EmailStatus[];
    readonly to: EmailStatus;
    /** Left as it is when undefined. */
    readonly smtpResponse?: string | null | undefined;
    /** Only these addresses; all when undefined. */
    readonly addresses?: readonly string[] | undefined;
  },
  at: string,
): Promise<string[]> {
  if (move.from.length === 0 || move.addresses?.length === 0) return [];
  let q = db
    .updateTable('email_recipients')
    .set({
      status: move.to,
      updated_at: at,
      ...(move.smtpResponse !== undefined ? { smtp_response: move.smtpResponse } : {}),
    })
    .where('email_id', '=', emailId)
    .where('status', 'in', [...move.from]);
  if (move.addresses) q = q.where('address', 'in', [...move.addresses]);
  const rows = await q.returning('address').execute();
  return rows.map((r) => r.address);
}

/** Sets one recipient's status and response while it is still in `expectStatus`. */
export async function updateRecipient(
  db: Kysely<Database>,
  recipientId: string,
  expectStatus: EmailStatus,
  update: { readonly status: EmailStatus; readonly smtpResponse: string | null },
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('email_recipients')
    .set({ status: update.status, smtp_response: update.smtpResponse, updated_at: at })
    .where('id', '=', recipientId)
    .where('status', '=', expectStatus)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether this exact timeline entry exists (makes re-applied reports idempotent). */
export async function hasEvent(
  db: Kysely<Database>,
  e: {
    readonly emailId: string;
    readonly recipient: string | null;
    readonly type: string;
    readonly message: string;
  },
): Promise<boolean> {
  let q = db
    .selectFrom('email_events')
    .select('id')
    .where('email_id', '=', e.emailId)
    .where('type', '=', e.type)
    .where('message', '=', e.message);
  q = e.recipient === null ? q.where('recipient', 'is', null) : q.where('recipient', '=', e.recipient);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}
