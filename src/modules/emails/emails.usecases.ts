import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { recordEmailEvent } from './email-events.repository';
import { emailView } from './email-view';
import { emailNotCancellable, emailNotFound } from './emails.errors';
import type { EmailListQuery } from './emails.repository';
import { eventsOf, findEmail, listEmails, markCancelled, recipientsOf } from './emails.repository';
import { refundQuota } from '../quota/quota';

export async function getEmailView(deps: { db: Kysely<Database>; userId: string; emailId: string }) {
  const email = await findEmail(deps.db, deps.userId, deps.emailId);
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

/**
 * Cancels a message the worker has not picked up yet (scheduled or still
 * queued). Its quota is given back; the queued job finds it cancelled and skips it.
 */
export async function cancelEmail(deps: {
  db: Kysely<Database>;
  log: Logger;
  userId: string;
  emailId: string;
}) {
  const { db, userId, emailId } = deps;
  const email = await findEmail(db, userId, emailId);
  if (!email) throw emailNotFound();
  const at = isoNow();
  const cancelled = await db.transaction().execute(async (trx) => {
    if (!(await markCancelled(trx, userId, emailId, at))) return false;
    await refundQuota(trx, emailId);
    await recordEmailEvent(trx, {
      emailId,
      userId,
      type: 'cancelled',
      message: 'cancelled before sending',
      at,
    });
    return true;
  });
  if (!cancelled) throw emailNotCancellable(undefined, { status: email.status });
  deps.log.info({ event: 'email_cancelled', emailId, userId }, 'email cancelled');
  return getEmailView({ db, userId, emailId });
}
