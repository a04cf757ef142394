import type { Insertable, Kysely } from 'kysely';
import { byArity, PreparedQuery } from '../../db/precompiled';
import type {
  Database,
  EmailAttachmentsTable,
  EmailEventsTable,
  EmailRecipientsTable,
  EmailsTable,
} from '../../db/schema';
import { insertEvent } from '../emails';

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
  'mode',
  'unverified_domain',
] as const satisfies readonly Exclude<keyof EmailInsert, 'attempts'>[];

export type QueuedEmailRow = Pick<Required<EmailInsert>, (typeof EMAIL_COLUMNS)[number]>;

const insertEmailRow = new PreparedQuery<QueuedEmailRow, unknown>((db, s) =>
  db
    .insertInto('emails')
    .values(Object.fromEntries(EMAIL_COLUMNS.map((c) => [c, s.param(c)])) as unknown as EmailInsert),
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

const insertRecipientRows = byArity<RecipientColumns, unknown>((db, s, arity) =>
  db.insertInto('email_recipients').values(
    Array.from({ length: arity }, (_, i) => ({
      id: s.item('id', i),
      email_id: s.param('emailId'),
      user_id: s.param('userId'),
      address: s.item('address', i),
      name: s.item('name', i),
      type: s.item('type', i),
      status: s.param('status'),
      smtp_response: null,
      updated_at: s.param('updatedAt'),
    })),
  ),
);

const insertAttachmentRow = new PreparedQuery<Required<Insertable<EmailAttachmentsTable>>, unknown>((db, s) =>
  db.insertInto('email_attachments').values({
    id: s.param('id'),
    email_id: s.param('email_id'),
    position: s.param('position'),
    filename: s.param('filename'),
    content_type: s.param('content_type'),
    cid: s.param('cid'),
    content: s.param('content'),
    size_bytes: s.param('size_bytes'),
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

/** The header-cleaned message of an SMTP submission, delivered as stored. */
export async function insertSubmittedRaw(
  trx: Kysely<Database>,
  emailId: string,
  content: Buffer,
): Promise<void> {
  await trx.insertInto('email_raw_messages').values({ email_id: emailId, content }).execute();
}
