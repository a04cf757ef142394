import type { Kysely, Selectable } from 'kysely';
import type {
  Database,
  EmailEventsTable,
  EmailRecipientsTable,
  EmailsTable,
  EmailStatus,
} from '../../db/schema';
import { idTimeFloor } from '../../shared/id-time-floor';
import { likeContains, likeEscape } from '../../shared/text';
import { likeIgnoringCase } from '../../db/text-match';

export type EmailRow = Selectable<EmailsTable>;
export type RecipientRow = Selectable<EmailRecipientsTable>;
export type EventRow = Selectable<EmailEventsTable>;

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

/** What the message carries as attachments (never their content), in their order. */
export async function attachmentsOf(
  db: Kysely<Database>,
  emailId: string,
): Promise<{ filename: string; content_type: string; size_bytes: number; cid: string | null }[]> {
  return db
    .selectFrom('email_attachments')
    .select(['filename', 'content_type', 'size_bytes', 'cid'])
    .where('email_id', '=', emailId)
    .orderBy('position')
    .execute();
}

export interface EmailListQuery {
  readonly userId: string;
  readonly status?: EmailStatus | undefined;
  readonly domainId?: string | undefined;
  readonly recipient?: string | undefined;
  /** A tag by name, or by name and value. */
  readonly tag?: { readonly name: string; readonly value?: string | undefined } | undefined;
  /** createdAt at or after, and before, these RFC 3339 UTC instants. */
  readonly createdFrom?: string | undefined;
  readonly createdBefore?: string | undefined;
  /** Free text: a substring of the subject or of a recipient address, ignoring (ASCII) case. */
  readonly text?: string | undefined;
  /** Only ids older than this one (the cursor): newest first, stable while new mail arrives. */
  readonly beforeId?: string | undefined;
  readonly limit: number;
}

/** Ids are made at acceptance, a moment before created_at is read: the id bounds allow for that. */
const ID_TIME_SLACK_MS = 60_000;

/**
 * The stored tags are our own JSON.stringify of `{name: value}`: a `"` inside a name or
 * value is always escaped, so `{"name":` or `,"name":` only ever starts an entry.
 * LIKE, not a JSON function, keeps the query portable to PostgreSQL.
 */
function tagPatterns(tag: NonNullable<EmailListQuery['tag']>): string[] {
  const name = likeEscape(JSON.stringify(tag.name));
  if (tag.value === undefined) return [`%{${name}:%`, `%,${name}:%`];
  // The exact value: the entry ends at the next `,` or at the closing `}`.
  const entry = `${name}:${likeEscape(JSON.stringify(tag.value))}`;
  return ['{', ','].flatMap((start) => [`%${start}${entry},%`, `%${start}${entry}}%`]);
}

/**
 * Newest first. Index-backed: (user_id, id, subject, tags) — the time range is turned into
 * id bounds, ids sorting by creation time; tag and subject substring tests run on the index
 * entries (migration 013) — (user_id, status, id), (domain_id, id), recipients
 * (user_id, address, email_id). bench/dashboard-list.ts times each combination on 10,000 messages.
 */
export async function listEmails(db: Kysely<Database>, q: EmailListQuery): Promise<EmailRow[]> {
  let query = matchingEmails(db, q).selectAll('emails');
  if (q.beforeId !== undefined) query = query.where('emails.id', '<', q.beforeId);
  return query.orderBy('emails.id', 'desc').limit(q.limit).execute();
}

/**
 * How many of the account's messages match the list's filters (not its cursor), counting no
 * further than `upTo`: the index entries read stop there, so a total costs at most `upTo` rows
 * more than the page (docs/internals/code-map.md, "The email list's total").
 */
export async function countEmails(
  db: Kysely<Database>,
  q: Omit<EmailListQuery, 'beforeId' | 'limit'>,
  upTo: number,
): Promise<number> {
  const row = await db
    .selectFrom(matchingEmails(db, q).select('emails.id').limit(upTo).as('matching'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's messages that pass the list's filters, as a query to select from. */
function matchingEmails(db: Kysely<Database>, q: Omit<EmailListQuery, 'beforeId' | 'limit'>) {
  let query = db.selectFrom('emails').where('emails.user_id', '=', q.userId);
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
  if (q.createdFrom !== undefined) {
    const from = q.createdFrom;
    query = query
      .where('emails.id', '>=', idTimeFloor('email', Date.parse(from) - ID_TIME_SLACK_MS))
      .where('emails.created_at', '>=', from);
  }
  if (q.createdBefore !== undefined) {
    const before = q.createdBefore;
    query = query
      .where('emails.id', '<', idTimeFloor('email', Date.parse(before) + ID_TIME_SLACK_MS))
      .where('emails.created_at', '<', before);
  }
  if (q.tag !== undefined) {
    const patterns = tagPatterns(q.tag);
    query = query.where((eb) => eb.or(patterns.map((p) => likeIgnoringCase('emails.tags', p))));
  }
  if (q.text !== undefined) {
    const pattern = likeContains(q.text);
    query = query.where((eb) =>
      eb.or([
        likeIgnoringCase('emails.subject', pattern),
        eb(
          'emails.id',
          'in',
          eb
            .selectFrom('email_recipients')
            .select('email_id')
            .where('email_recipients.user_id', '=', q.userId)
            .where(() => likeIgnoringCase('email_recipients.address', pattern)),
        ),
      ]),
    );
  }
  return query;
}

/**
 * Whether a domain has sent live mail: such a domain cannot be deleted (its history would dangle).
 * Test-mode mail (captured, never delivered) is no sending history: it goes with the domain.
 */
export async function domainHasHistory(db: Kysely<Database>, domainId: string): Promise<boolean> {
  const row = await db
    .selectFrom('emails')
    .select('id')
    .where('domain_id', '=', domainId)
    .where('mode', '<>', 'test')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes the account's test-mode messages from one domain (their rows cascade); how many. */
export async function deleteTestEmailsOfDomain(
  trx: Kysely<Database>,
  userId: string,
  domainId: string,
): Promise<number> {
  const res = await trx
    .deleteFrom('emails')
    .where('user_id', '=', userId)
    .where('domain_id', '=', domainId)
    .where('mode', '=', 'test')
    .executeTakeFirst();
  return Number(res.numDeletedRows);
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
