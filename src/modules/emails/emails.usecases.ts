import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { emailView } from './email-view';
import { emailNotFound, emailPartNotFound } from './emails.errors';
import type { EmailListQuery } from './emails.repository';
import { eventsOf, findAccountEmail, listEmails, recipientsOf } from './emails.repository';

export async function getEmailView(deps: { db: Kysely<Database>; userId: string; emailId: string }) {
  const email = await findAccountEmail(deps.db, deps.userId, deps.emailId);
  if (!email) throw emailNotFound();
  const [recipients, events] = await Promise.all([
    recipientsOf(deps.db, [email.id]),
    eventsOf(deps.db, email.id),
  ]);
  return emailView(email, recipients, events);
}

export async function listEmailViews(deps: { db: Kysely<Database>; userId: string; query: EmailListQuery }) {
  const rows = await listEmails(deps.db, { ...deps.query, limit: deps.query.limit + 1 });
  const page = rows.slice(0, deps.query.limit);
  const recipients = await recipientsOf(
    deps.db,
    page.map((e) => e.id),
  );
  const byEmail = Map.groupBy(recipients, (r) => r.email_id);
  return {
    data: page.map((e) => emailView(e, byEmail.get(e.id) ?? [])),
    hasMore: rows.length > deps.query.limit,
    lastId: page.at(-1)?.id ?? null,
  };
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
