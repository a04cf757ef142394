import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../db/schema';
import type { EmailRow, RecipientRow } from '../modules/emails/emails.repository';
import { findAccountEmail, listEmails, recipientsOf } from '../modules/emails/emails.repository';
import { emailNotFound } from '../modules/emails/emails.errors';

/** Resend's `last_event` for a Mailroom status (GetEmailResponseSuccess in node_modules/resend). */
export function lastEvent(row: Pick<EmailRow, 'status' | 'scheduled_at'>): string {
  const byStatus: Record<EmailStatus, string> = {
    queued: row.scheduled_at === null ? 'queued' : 'scheduled',
    processing: 'queued',
    sent: 'sent',
    delivered: 'delivered',
    deferred: 'delivery_delayed',
    bounced: 'bounced',
    complained: 'complained',
    failed: 'failed',
    cancelled: 'canceled',
  };
  return byStatus[row.status];
}

function parseList(json: string | null): string[] | null {
  if (json === null) return null;
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.map(String) : null;
}

/** The recipients of one type as their headers show them (`Name <addr>` when a name was given). */
function addresses(recipients: readonly RecipientRow[], type: RecipientRow['type']): string[] {
  return recipients
    .filter((r) => r.type === type)
    .map((r) => (r.name ? `${r.name} <${r.address}>` : r.address));
}

function orNull(list: string[]): string[] | null {
  return list.length > 0 ? list : null;
}

/** Resend's list entry: the email without its bodies and tags. */
export function resendListEmail(row: EmailRow, recipients: readonly RecipientRow[]) {
  return {
    id: row.id,
    to: addresses(recipients, 'to'),
    from: row.from_header,
    created_at: row.created_at,
    subject: row.subject,
    bcc: orNull(addresses(recipients, 'bcc')),
    cc: orNull(addresses(recipients, 'cc')),
    reply_to: parseList(row.reply_to),
    last_event: lastEvent(row),
    scheduled_at: row.scheduled_at,
    message_id: row.message_id,
  };
}

function resendTags(json: string | null): { name: string; value: string }[] {
  if (json === null) return [];
  const value = JSON.parse(json) as unknown;
  if (Array.isArray(value)) return value as { name: string; value: string }[];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value as Record<string, unknown>).map(([name, v]) => ({ name, value: String(v) }));
}

/** `GET /emails/{id}`: Resend's email object, read through the account's scope. */
export async function getResendEmail(deps: { db: Kysely<Database>; userId: string; emailId: string }) {
  const row = await findAccountEmail(deps.db, deps.userId, deps.emailId);
  if (!row) throw emailNotFound();
  const recipients = await recipientsOf(deps.db, [row.id]);
  return {
    object: 'email' as const,
    ...resendListEmail(row, recipients),
    html: row.html,
    text: row.text,
    tags: resendTags(row.tags),
  };
}

/** `GET /emails`: newest first; `after` is the last id of the previous page, as Resend pages. */
export async function listResendEmails(deps: {
  db: Kysely<Database>;
  userId: string;
  limit: number;
  after: string | undefined;
}) {
  const rows = await listEmails(deps.db, {
    userId: deps.userId,
    beforeId: deps.after,
    limit: deps.limit + 1,
  });
  const page = rows.slice(0, deps.limit);
  const recipients = await recipientsOf(
    deps.db,
    page.map((e) => e.id),
  );
  const byEmail = Map.groupBy(recipients, (r) => r.email_id);
  return {
    object: 'list' as const,
    has_more: rows.length > deps.limit,
    data: page.map((e) => resendListEmail(e, byEmail.get(e.id) ?? [])),
  };
}
