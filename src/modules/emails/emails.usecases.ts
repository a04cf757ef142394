import type { Kysely } from 'kysely';
import { readConsistently } from '../../db/read-consistently';
import type { Database } from '../../db/schema';
import { findCapturedInfo, findCapturedRaw } from './captured-message.repository';
import { captureView, emailView } from './email-view';
import { emailNotFound, emailPartNotFound } from './emails.errors';
import type { EmailListQuery } from './emails.repository';
import {
  attachmentsOf,
  countEmails,
  eventsOf,
  findAccountEmail,
  listEmails,
  recipientsOf,
} from './emails.repository';

/** The single-message view: the list's, plus its timeline, capture, body parts and attachments. */
export type EmailDetailView = ReturnType<typeof emailView> & {
  readonly parts: { readonly html: boolean; readonly text: boolean };
  readonly attachments: readonly {
    readonly filename: string;
    readonly contentType: string;
    readonly sizeBytes: number;
    readonly inline: boolean;
  }[];
};

/**
 * One message with its recipients and timeline, read from one snapshot (`readConsistently`, unless
 * the caller's transaction is one already): a report committed between the reads would otherwise
 * show its timeline entry beside recipients from before it.
 */
export async function getEmailView(deps: {
  db: Kysely<Database>;
  userId: string;
  emailId: string;
}): Promise<EmailDetailView> {
  if (!deps.db.isTransaction) return readConsistently(deps.db, (db) => getEmailView({ ...deps, db }));
  const { db } = deps;
  const email = await findAccountEmail(db, deps.userId, deps.emailId);
  if (!email) throw emailNotFound();
  const recipients = await recipientsOf(db, [email.id]);
  const events = await eventsOf(db, email.id);
  const captured = email.mode === 'test' ? await findCapturedInfo(db, deps.userId, email.id) : undefined;
  const attachments = await attachmentsOf(db, email.id);
  return {
    ...emailView(email, recipients, events, captureView(email, captured)),
    parts: { html: email.html !== null, text: email.text !== null },
    attachments: attachments.map((a) => ({
      filename: a.filename,
      contentType: a.content_type,
      sizeBytes: a.size_bytes,
      inline: a.cid !== null,
    })),
  };
}

/** A list's total stops counting here: past it the dashboard says "10,000+" (docs/api.md). */
export const EMAIL_TOTAL_CAP = 10_000;

/** How many messages match the filters, up to EMAIL_TOTAL_CAP; `capped` when there are more. */
export interface EmailTotal {
  readonly count: number;
  readonly capped: boolean;
}

/**
 * A page of the account's messages; with `withTotal`, also how many match the filters in all
 * (whatever the cursor), read from the same snapshot as the page.
 */
export async function listEmailViews(deps: {
  db: Kysely<Database>;
  userId: string;
  query: EmailListQuery;
  withTotal?: boolean;
}): Promise<{
  data: ReturnType<typeof emailView>[];
  hasMore: boolean;
  lastId: string | null;
  total?: EmailTotal;
}> {
  if (deps.withTotal && !deps.db.isTransaction)
    return readConsistently(deps.db, (db) => listEmailViews({ ...deps, db }));
  const rows = await listEmails(deps.db, { ...deps.query, limit: deps.query.limit + 1 });
  const page = rows.slice(0, deps.query.limit);
  const recipients = await recipientsOf(
    deps.db,
    page.map((e) => e.id),
  );
  const byEmail = Map.groupBy(recipients, (r) => r.email_id);
  const listed = {
    data: page.map((e) => emailView(e, byEmail.get(e.id) ?? [])),
    hasMore: rows.length > deps.query.limit,
    lastId: page.at(-1)?.id ?? null,
  };
  if (!deps.withTotal) return listed;
  const n = await countEmails(deps.db, deps.query, EMAIL_TOTAL_CAP + 1);
  return { ...listed, total: { count: Math.min(n, EMAIL_TOTAL_CAP), capped: n > EMAIL_TOTAL_CAP } };
}

/** The stored html or text body of one of the account's messages, for the preview route. */
export async function emailPart(deps: {
  db: Kysely<Database>;
  userId: string;
  emailId: string;
  part: 'html' | 'text';
}): Promise<string> {
  const email = await findAccountEmail(deps.db, deps.userId, deps.emailId);
  if (!email) throw emailNotFound();
  const body = deps.part === 'html' ? email.html : email.text;
  if (body === null) throw emailPartNotFound(`The message has no ${deps.part} part`);
  return body;
}

/** One of the account's messages with all its recipients, for the raw download. */
export async function accountEmailWithRecipients(deps: {
  db: Kysely<Database>;
  userId: string;
  emailId: string;
}) {
  const email = await findAccountEmail(deps.db, deps.userId, deps.emailId);
  if (!email) throw emailNotFound();
  return { email, recipients: await recipientsOf(deps.db, [email.id]) };
}

/**
 * The captured message of a test send as signed (issue 21); EMAIL_NOT_FOUND, with the reason
 * in its details, when there is none. Live mail keeps no sent copy: GET /v1/emails/{id}/raw
 * builds it instead (modules/delivery/message-bytes.ts).
 */
export async function getCapturedRaw(deps: { db: Kysely<Database>; userId: string; emailId: string }) {
  const email = await findAccountEmail(deps.db, deps.userId, deps.emailId);
  if (!email) throw emailNotFound();
  const raw = await findCapturedRaw(deps.db, deps.userId, email.id);
  if (!raw) {
    throw emailNotFound(
      'No captured copy of this message: only test-mode mail is captured, for CAPTURE_RETENTION_DAYS',
      {
        reason: email.mode === 'test' ? 'capture_not_available' : 'not_test_mode',
      },
    );
  }
  return raw;
}
