import type { Kysely, Selectable } from 'kysely';
import { items, perShape, PreparedQuery } from '../../db/precompiled';
import type { Database, DomainStatus, EmailAttachmentsTable, EmailStatus } from '../../db/schema';
import type { EmailRow, RecipientRow } from '../emails/emails.repository';

/**
 * Reads and writes of the delivery side (worker): a message, its recipients and
 * attachments as the send and outcome jobs need them. Writes that depend on the
 * state read before them carry that state as a guard and report whether they
 * applied, so a concurrent writer is noticed instead of overwritten.
 *
 * Each statement runs for every message the worker sends or every delivery report
 * it applies, so each is compiled once (db/precompiled.ts): building and compiling
 * a kysely query cost the worker more CPU than SQLite took to run it (issue 11).
 * A statement whose SQL depends on its arguments (optional columns, list lengths)
 * gets one compiled query per shape (perShape in db/precompiled.ts).
 */

export type AttachmentRow = Selectable<EmailAttachmentsTable>;

export interface EmailForSend extends EmailRow {
  readonly user_status: 'ACTIVE' | 'SUSPENDED';
  /** The sending domain's name, for the VERP envelope sender. */
  readonly domain_name: string;
  readonly domain_status: DomainStatus;
}

const emailForSend = new PreparedQuery<{ emailId: string }, EmailForSend>((db, p) =>
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
    .where('emails.id', '=', p.emailId),
);

/** The message with what re-validation needs: its account's and domain's current status. */
export async function findEmailForSend(
  db: Kysely<Database>,
  emailId: string,
): Promise<EmailForSend | undefined> {
  return emailForSend.first(db, { emailId });
}

const emailById = new PreparedQuery<{ emailId: string }, EmailRow>((db, p) =>
  db.selectFrom('emails').selectAll().where('id', '=', p.emailId),
);

export async function findEmail(db: Kysely<Database>, emailId: string): Promise<EmailRow | undefined> {
  return emailById.first(db, { emailId });
}

const recipientsOf = new PreparedQuery<{ emailId: string }, RecipientRow>((db, p) =>
  db.selectFrom('email_recipients').selectAll().where('email_id', '=', p.emailId).orderBy('id', 'asc'),
);

/** In insertion order (ids sort by creation): to, cc, bcc as the API wrote them. */
export async function listRecipients(db: Kysely<Database>, emailId: string): Promise<RecipientRow[]> {
  return recipientsOf.rows(db, { emailId });
}

const recipientByAddress = new PreparedQuery<{ emailId: string; address: string }, RecipientRow>((db, p) =>
  db
    .selectFrom('email_recipients')
    .selectAll()
    .where('email_id', '=', p.emailId)
    .where('address', '=', p.address),
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
>((db, p) =>
  db
    .selectFrom('email_recipients')
    .select(['status', 'smtp_response', 'updated_at'])
    .where('email_id', '=', p.emailId)
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

const attachmentsOf = new PreparedQuery<{ emailId: string }, AttachmentRow>((db, p) =>
  db.selectFrom('email_attachments').selectAll().where('email_id', '=', p.emailId).orderBy('position', 'asc'),
);

export async function listAttachments(db: Kysely<Database>, emailId: string): Promise<AttachmentRow[]> {
  return attachmentsOf.rows(db, { emailId });
}

const startAttemptUpdate = new PreparedQuery<
  { emailId: string; status: EmailStatus; attempts: number; at: string },
  unknown
>((db, p) =>
  db
    .updateTable('emails')
    .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), updated_at: p.at }))
    .where('id', '=', p.emailId)
    .where('status', '=', p.status)
    .where('attempts', '=', p.attempts),
);

/**
 * Counts a new hand-off attempt and marks the message `processing`, provided it
 * is still in the status and attempt count the caller read.
 */
export async function startAttempt(
  db: Kysely<Database>,
  guard: { readonly emailId: string; readonly status: EmailStatus; readonly attempts: number },
  at: string,
): Promise<boolean> {
  const result = await startAttemptUpdate.run(db, { ...guard, at });
  return (result.numAffectedRows ?? 0n) > 0n;
}

export interface EmailUpdate {
  readonly status: EmailStatus;
  /** Left as it is when undefined. */
  readonly smtpResponse?: string | null | undefined;
  readonly sentAt?: string | undefined;
  /** Written only while the message has none: the first delivery counts. */
  readonly deliveredAt?: string | undefined;
}

interface EmailUpdateShape {
  readonly smtpResponse: boolean;
  readonly sentAt: boolean;
  readonly deliveredAt: boolean;
  readonly expect: boolean;
}

interface EmailUpdateValues {
  emailId: string;
  status: EmailStatus;
  at: string;
  smtpResponse: string | null;
  sentAt: string;
  deliveredAt: string;
  expectStatus: EmailStatus;
  expectAttempts: number;
}

const emailUpdate = perShape<EmailUpdateShape, EmailUpdateValues, unknown>(
  (s) => `${+s.smtpResponse}${+s.sentAt}${+s.deliveredAt}${+s.expect}`,
  (s) => (db, p) => {
    let q = db
      .updateTable('emails')
      .set((eb) => ({
        status: p.status,
        updated_at: p.at,
        ...(s.smtpResponse ? { smtp_response: p.smtpResponse } : {}),
        ...(s.sentAt ? { sent_at: p.sentAt } : {}),
        ...(s.deliveredAt ? { delivered_at: eb.fn.coalesce('delivered_at', eb.val(p.deliveredAt)) } : {}),
      }))
      .where('id', '=', p.emailId);
    if (s.expect) q = q.where('status', '=', p.expectStatus).where('attempts', '=', p.expectAttempts);
    return q;
  },
);

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
  const shape: EmailUpdateShape = {
    smtpResponse: update.smtpResponse !== undefined,
    sentAt: update.sentAt !== undefined,
    deliveredAt: update.deliveredAt !== undefined,
    expect: expect !== undefined,
  };
  const result = await emailUpdate(shape).run(db, {
    emailId,
    status: update.status,
    at,
    smtpResponse: update.smtpResponse ?? null,
    sentAt: update.sentAt ?? '',
    deliveredAt: update.deliveredAt ?? '',
    expectStatus: expect?.status ?? update.status,
    expectAttempts: expect?.attempts ?? 0,
  });
  return (result.numAffectedRows ?? 0n) > 0n;
}

interface MoveShape {
  readonly from: number;
  /** Number of addresses; -1: every recipient. */
  readonly addresses: number;
  readonly smtpResponse: boolean;
}

interface MoveValues {
  emailId: string;
  to: EmailStatus;
  at: string;
  smtpResponse: string | null;
  from: readonly EmailStatus[];
  addresses: readonly string[];
}

const recipientsMove = perShape<MoveShape, MoveValues, { address: string }>(
  (s) => `${s.from}:${s.addresses}:${+s.smtpResponse}`,
  (s) => (db, p, item) => {
    let q = db
      .updateTable('email_recipients')
      .set({
        status: p.to,
        updated_at: p.at,
        ...(s.smtpResponse ? { smtp_response: p.smtpResponse } : {}),
      })
      .where('email_id', '=', p.emailId)
      .where('status', 'in', items(item, 'from', s.from));
    if (s.addresses >= 0) {
      q = q.where('address', 'in', items(item, 'addresses', s.addresses));
    }
    return q.returning('address');
  },
);

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
  const shape: MoveShape = {
    from: move.from.length,
    addresses: move.addresses?.length ?? -1,
    smtpResponse: move.smtpResponse !== undefined,
  };
  const rows = await recipientsMove(shape).rows(db, {
    emailId,
    to: move.to,
    at,
    smtpResponse: move.smtpResponse ?? null,
    from: move.from,
    addresses: move.addresses ?? [],
  });
  return rows.map((r) => r.address);
}

const recipientUpdate = new PreparedQuery<
  {
    recipientId: string;
    expectStatus: EmailStatus;
    status: EmailStatus;
    smtpResponse: string | null;
    at: string;
  },
  unknown
>((db, p) =>
  db
    .updateTable('email_recipients')
    .set({ status: p.status, smtp_response: p.smtpResponse, updated_at: p.at })
    .where('id', '=', p.recipientId)
    .where('status', '=', p.expectStatus),
);

/** Sets one recipient's status and response while it is still in `expectStatus`. */
export async function updateRecipient(
  db: Kysely<Database>,
  recipientId: string,
  expectStatus: EmailStatus,
  update: { readonly status: EmailStatus; readonly smtpResponse: string | null },
  at: string,
): Promise<boolean> {
  const result = await recipientUpdate.run(db, {
    recipientId,
    expectStatus,
    status: update.status,
    smtpResponse: update.smtpResponse,
    at,
  });
  return (result.numAffectedRows ?? 0n) > 0n;
}

interface EventKey {
  emailId: string;
  recipient: string;
  type: string;
  message: string;
}

const eventExists = perShape<boolean, EventKey, { id: string }>(
  (forRecipient) => String(forRecipient),
  (forRecipient) => (db, p) => {
    let q = db
      .selectFrom('email_events')
      .select('id')
      .where('email_id', '=', p.emailId)
      .where('type', '=', p.type)
      .where('message', '=', p.message);
    q = forRecipient ? q.where('recipient', '=', p.recipient) : q.where('recipient', 'is', null);
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
