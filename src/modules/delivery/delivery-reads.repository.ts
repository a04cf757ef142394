import type { Kysely, Selectable } from 'kysely';
import { perShape, PreparedQuery } from '../../db/precompiled';
import type { Database, DomainStatus, EmailAttachmentsTable, EmailStatus } from '../../db/schema';
import type { EmailRow, RecipientRow } from '../emails';

/**
 * Reads of the delivery side (worker): a message, its recipients and attachments as
 * the send and outcome jobs need them, and whether a timeline entry exists. The
 * writes that follow them are in delivery.repository.ts.
 *
 * Each statement runs for every message the worker sends or every delivery report
 * it applies, so each is compiled once (db/precompiled.ts): building a kysely query
 * per call cost more CPU than SQLite took to run it (bench/RESULTS.md). A statement
 * whose SQL depends on its arguments gets one compiled query per shape (perShape).
 */

export type AttachmentRow = Selectable<EmailAttachmentsTable>;

export interface EmailForSend extends EmailRow {
  readonly user_status: 'ACTIVE' | 'SUSPENDED';
  /** The sending domain's name, for the VERP envelope sender. */
  readonly domain_name: string;
  readonly domain_status: DomainStatus;
}

const emailForSend = new PreparedQuery<{ emailId: string }, EmailForSend>((db, s) =>
  db
    .selectFrom('emails')
    .innerJoin('users', 'users.id', 'emails.user_id')
    .innerJoin('domains', 'domains.id', 'emails.domain_id')
    .selectAll('emails')
    .select([
      'users.status as user_status',
      'domains.domain as domain_name',
      'domains.status as domain_status',
    ])
    .where('emails.id', '=', s.param('emailId')),
);

/** The message with what re-validation needs: its account's and domain's current status. */
export async function findEmailForSend(
  db: Kysely<Database>,
  emailId: string,
): Promise<EmailForSend | undefined> {
  return emailForSend.first(db, { emailId });
}

const emailById = new PreparedQuery<{ emailId: string }, EmailRow>((db, s) =>
  db.selectFrom('emails').selectAll().where('id', '=', s.param('emailId')),
);

export async function findEmail(db: Kysely<Database>, emailId: string): Promise<EmailRow | undefined> {
  return emailById.first(db, { emailId });
}

const recipientsOf = new PreparedQuery<{ emailId: string }, RecipientRow>((db, s) =>
  db
    .selectFrom('email_recipients')
    .selectAll()
    .where('email_id', '=', s.param('emailId'))
    .orderBy('id', 'asc'),
);

/** In insertion order (ids sort by creation): to, cc, bcc as the API wrote them. */
export async function listRecipients(db: Kysely<Database>, emailId: string): Promise<RecipientRow[]> {
  return recipientsOf.rows(db, { emailId });
}

const recipientByAddress = new PreparedQuery<{ emailId: string; address: string }, RecipientRow>((db, s) =>
  db
    .selectFrom('email_recipients')
    .selectAll()
    .where('email_id', '=', s.param('emailId'))
    .where('address', '=', s.param('address')),
);

export async function findRecipient(
  db: Kysely<Database>,
  emailId: string,
  address: string,
): Promise<RecipientRow | undefined> {
  return recipientByAddress.first(db, { emailId, address });
}

const recipientStatesOf = new PreparedQuery<
  { emailId: string },
  Pick<RecipientRow, 'status' | 'smtp_response' | 'updated_at'>
>((db, s) =>
  db
    .selectFrom('email_recipients')
    .select(['status', 'smtp_response', 'updated_at'])
    .where('email_id', '=', s.param('emailId'))
    .orderBy('id', 'asc'),
);

/** The recipients as the status machine sees them (delivery-status `aggregate`). */
export async function recipientStates(
  db: Kysely<Database>,
  emailId: string,
): Promise<{ status: EmailStatus; smtpResponse: string | null; updatedAt: string }[]> {
  const rows = await recipientStatesOf.rows(db, { emailId });
  return rows.map((r) => ({ status: r.status, smtpResponse: r.smtp_response, updatedAt: r.updated_at }));
}

const attachmentsOf = new PreparedQuery<{ emailId: string }, AttachmentRow>((db, s) =>
  db
    .selectFrom('email_attachments')
    .selectAll()
    .where('email_id', '=', s.param('emailId'))
    .orderBy('position', 'asc'),
);

export async function listAttachments(db: Kysely<Database>, emailId: string): Promise<AttachmentRow[]> {
  return attachmentsOf.rows(db, { emailId });
}

interface EventKey {
  emailId: string;
  recipient: string;
  type: string;
  message: string;
}

const eventExists = perShape<boolean, EventKey, { id: string }>(
  (forRecipient) => String(forRecipient),
  (forRecipient) => (db, s) => {
    let q = db
      .selectFrom('email_events')
      .select('id')
      .where('email_id', '=', s.param('emailId'))
      .where('type', '=', s.param('type'))
      .where('message', '=', s.param('message'));
    q = forRecipient ? q.where('recipient', '=', s.param('recipient')) : q.where('recipient', 'is', null);
    return q.limit(1);
  },
);

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
  const found = await eventExists(e.recipient !== null).first(db, {
    emailId: e.emailId,
    recipient: e.recipient ?? '',
    type: e.type,
    message: e.message,
  });
  return found !== undefined;
}
