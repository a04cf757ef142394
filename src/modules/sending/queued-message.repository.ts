import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import { byArity, PreparedQuery } from '../../db/precompiled';
import type {
  Database,
  EmailAttachmentsTable,
  EmailEventsTable,
  EmailRecipientsTable,
  EmailsTable,
  JobsTable,
} from '../../db/schema';
import { DEFAULT_MAX_ATTEMPTS } from '../../jobs/enqueue';
import type { EnqueueInput } from '../../jobs/enqueue';
import { newId } from '../../shared/ids';
import { insertEvent } from '../emails/email-events.repository';

/**
 * The rows a send writes in its transaction (commit-message.ts), as queries
 * compiled once (db/precompiled.ts): the API and SMTP submission run them for
 * every accepted message, and building them anew cost more than running them.
 */

type EmailInsert = Insertable<EmailsTable>;

/** Every column an accepted message sets (`attempts` keeps its default). */
const EMAIL_COLUMNS = [
  'id',
  'user_id',
  'domain_id',
  'api_key_id',
  'source',
  'from_address',
  'from_header',
  'subject',
  'reply_to',
  'headers',
  'tags',
  'metadata',
  'html',
  'text',
  'message_id',
  'size_bytes',
  'status',
  'smtp_response',
  'scheduled_at',
  'created_at',
  'updated_at',
  'sent_at',
  'delivered_at',
] as const satisfies readonly Exclude<keyof EmailInsert, 'attempts'>[];

export type QueuedEmailRow = Pick<Required<EmailInsert>, (typeof EMAIL_COLUMNS)[number]>;

const insertEmailRow = new PreparedQuery<QueuedEmailRow, unknown>((db, p) =>
  db
    .insertInto('emails')
    .values(Object.fromEntries(EMAIL_COLUMNS.map((c) => [c, p[c]])) as unknown as EmailInsert),
);

type RecipientInsert = Required<Insertable<EmailRecipientsTable>>;

/** The recipients' columns as parallel lists, one entry per recipient. */
interface RecipientColumns {
  readonly id: readonly string[];
  readonly address: readonly string[];
  readonly name: readonly (string | null)[];
  readonly type: readonly RecipientInsert['type'][];
  readonly emailId: string;
  readonly userId: string;
  readonly status: RecipientInsert['status'];
  readonly updatedAt: string;
}

const insertRecipientRows = byArity<RecipientColumns, unknown>((db, p, item, arity) =>
  db.insertInto('email_recipients').values(
    Array.from({ length: arity }, (_, i) => ({
      id: item('id', i),
      email_id: p.emailId,
      user_id: p.userId,
      address: item('address', i),
      name: item('name', i),
      type: item('type', i),
      status: p.status,
      smtp_response: null,
      updated_at: p.updatedAt,
    })),
  ),
);

const insertAttachmentRow = new PreparedQuery<Required<Insertable<EmailAttachmentsTable>>, unknown>((db, p) =>
  db.insertInto('email_attachments').values({
    id: p.id,
    email_id: p.email_id,
    position: p.position,
    filename: p.filename,
    content_type: p.content_type,
    cid: p.cid,
    content: p.content,
    size_bytes: p.size_bytes,
  }),
);

/** The message row, its recipients (one statement) and its attachments (one row each: they can be megabytes). */
export async function insertQueuedEmail(
  trx: Kysely<Database>,
  email: QueuedEmailRow,
  recipients: readonly Pick<RecipientInsert, 'id' | 'address' | 'name' | 'type'>[],
  attachments: readonly Required<Insertable<EmailAttachmentsTable>>[],
): Promise<void> {
  await insertEmailRow.run(trx, email);
  if (recipients.length > 0) {
    await insertRecipientRows(recipients.length).run(trx, {
      id: recipients.map((r) => r.id),
      address: recipients.map((r) => r.address),
      name: recipients.map((r) => r.name),
      type: recipients.map((r) => r.type),
      emailId: email.id,
      userId: email.user_id,
      status: email.status,
      updatedAt: email.updated_at,
    });
  }
  for (const a of attachments) await insertAttachmentRow.run(trx, a);
}

/** One timeline entry (the `queued` one of a new message). */
export async function insertQueuedEvent(
  trx: Kysely<Database>,
  event: Required<Insertable<EmailEventsTable>>,
): Promise<void> {
  await insertEvent.run(trx, event);
}

type JobRow = Pick<
  Required<Insertable<JobsTable>>,
  | 'id'
  | 'queue'
  | 'payload'
  | 'state'
  | 'run_at'
  | 'max_attempts'
  | 'dedupe_key'
  | 'created_at'
  | 'updated_at'
>;

const insertJobRow = new PreparedQuery<JobRow, unknown>((db, p) =>
  db.insertInto('jobs').values({
    id: p.id,
    queue: p.queue,
    payload: p.payload,
    state: p.state,
    run_at: p.run_at,
    max_attempts: p.max_attempts,
    dedupe_key: p.dedupe_key,
    created_at: p.created_at,
    updated_at: p.updated_at,
  }),
);

/**
 * The new message's `email-send` job (send-job.ts `emailSendJob`), written as
 * jobs/enqueue.ts writes a job but compiled once. Its dedupe key is the message's
 * id, new in this transaction, so enqueue's ON CONFLICT DO NOTHING cannot apply:
 * a conflict here is a failure of the send (EMAIL_QUEUE_FAILED), never a no-op.
 */
export async function insertNewMessageJob(
  trx: Kysely<Database>,
  job: EnqueueInput,
  now: string,
): Promise<void> {
  await insertJobRow.run(trx, {
    id: newId('job'),
    queue: job.queue,
    payload: JSON.stringify(job.payload),
    state: 'queued',
    run_at: job.runAt?.toISOString() ?? now,
    max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    dedupe_key: job.dedupeKey ?? null,
    created_at: now,
    updated_at: now,
  });
}

/** The header-cleaned message of an SMTP submission, delivered as stored. */
export async function insertSubmittedRaw(
  trx: Kysely<Database>,
  emailId: string,
  content: Buffer,
): Promise<void> {
  // email_raw_messages (migration 008) is not in the schema types: SMTP submission alone reads and writes it.
  await sql`INSERT INTO email_raw_messages (email_id, content) VALUES (${emailId}, ${content})`.execute(trx);
}
