import type { Insertable, Kysely, Selectable } from 'kysely';
import type {
  Database,
  EmailAttachmentsTable,
  EmailEventsTable,
  EmailRecipientsTable,
  EmailsTable,
  EmailStatus,
} from '../../db/schema';

export type EmailRow = Selectable<EmailsTable>;
export type RecipientRow = Selectable<EmailRecipientsTable>;
export type EventRow = Selectable<EmailEventsTable>;

export async function insertEmail(
  trx: Kysely<Database>,
  email: Insertable<EmailsTable>,
  recipients: readonly Insertable<EmailRecipientsTable>[],
  attachments: readonly Insertable<EmailAttachmentsTable>[],
): Promise<void> {
  await trx.insertInto('emails').values(email).execute();
  if (recipients.length > 0)
    await trx
      .insertInto('email_recipients')
      .values([...recipients])
      .execute();
  // One row at a time: a multi-row insert of megabyte blobs gains nothing and builds one huge statement.
  for (const a of attachments) await trx.insertInto('email_attachments').values(a).execute();
}

/** The message if it belongs to the account (the API's reads); the worker's findEmail is in delivery.repository. */
export async function findAccountEmail(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<EmailRow | undefined> {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function recipientsOf(
  db: Kysely<Database>,
  emailIds: readonly string[],
): Promise<RecipientRow[]> {
  if (emailIds.length === 0) return [];
  return db
    .selectFrom('email_recipients')
    .selectAll()
    .where('email_id', 'in', emailIds)
    .orderBy('email_id')
    .orderBy('id')
    .execute();
}

export async function eventsOf(db: Kysely<Database>, emailId: string): Promise<EventRow[]> {
  return db.selectFrom('email_events').selectAll().where('email_id', '=', emailId).orderBy('id').execute();
}

export interface EmailListQuery {
  readonly userId: string;
  readonly status?: EmailStatus | undefined;
  readonly domainId?: string | undefined;
  readonly recipient?: string | undefined;
  /** Only ids older than this one (the cursor): newest first, stable while new mail arrives. */
  readonly beforeId?: string | undefined;
  readonly limit: number;
}

/** Index-backed: (user_id, id), (user_id, status, id), (domain_id, id), recipients (user_id, address, email_id). */
export async function listEmails(db: Kysely<Database>, q: EmailListQuery): Promise<EmailRow[]> {
  let query = db.selectFrom('emails').selectAll('emails').where('emails.user_id', '=', q.userId);
  if (q.recipient !== undefined) {
    const recipient = q.recipient;
    query = query.where('emails.id', 'in', (eb) =>
      eb
        .selectFrom('email_recipients')
        .select('email_id')
        .where('email_recipients.user_id', '=', q.userId)
        .where('email_recipients.address', '=', recipient),
    );
  }
  if (q.status !== undefined) query = query.where('emails.status', '=', q.status);
  if (q.domainId !== undefined) query = query.where('emails.domain_id', '=', q.domainId);
  if (q.beforeId !== undefined) query = query.where('emails.id', '<', q.beforeId);
  return query.orderBy('emails.id', 'desc').limit(q.limit).execute();
}

/** Whether a domain has sent anything: such a domain cannot be deleted (its history would dangle). */
export async function domainHasHistory(db: Kysely<Database>, domainId: string): Promise<boolean> {
  const row = await db
    .selectFrom('emails')
    .select('id')
    .where('domain_id', '=', domainId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks a still-queued message cancelled; false when it was no longer queued. */
export async function markCancelled(
  trx: Kysely<Database>,
  userId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const res = await trx
    .updateTable('emails')
    .set({ status: 'cancelled', updated_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (res.numUpdatedRows === 0n) return false;
  await trx
    .updateTable('email_recipients')
    .set({ status: 'cancelled', updated_at: at })
    .where('email_id', '=', id)
    .execute();
  return true;
}

/** Moves a still-scheduled message to `scheduledAt`; false when it is no longer waiting. */
export async function markRescheduled(
  trx: Kysely<Database>,
  userId: string,
  id: string,
  scheduledAt: string,
  at: string,
): Promise<boolean> {
  const res = await trx
    .updateTable('emails')
    .set({ scheduled_at: scheduledAt, updated_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .where('scheduled_at', 'is not', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
