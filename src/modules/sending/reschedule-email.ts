import type { Kysely } from 'kysely';
import type { Database, SendMode } from '../../db/schema';
import { refuseLiveEffect } from '../../shared/test-mode';
import { rescheduleQueuedJob } from '../../jobs/reschedule';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { EMAIL_SEND_QUEUE } from '../delivery';
import { recordEmailEvent } from '../emails';
import { emailNotFound, emailNotScheduled } from '../emails';
import { findAccountEmail, markRescheduled } from '../emails';
import { getEmailView } from '../emails';

/** What PATCH /v1/emails/{id} (and the Resend surface's update) takes. */
export interface RescheduleInput {
  /** RFC 3339, validated as at send time (scheduledAtField): at most 30 days ahead. */
  readonly scheduledAt: string;
}

/**
 * Moves a message still waiting for its scheduled time to another time (issue 20).
 * The message and its `email-send` job move together in one transaction, and only
 * while the job is unclaimed: once the worker has it, the message is no longer
 * scheduled (409 EMAIL_NOT_SCHEDULED). A time in the past sends now, as at send
 * time; `due` tells the caller to wake the worker. Audited in the same transaction.
 */
export async function rescheduleEmail(deps: {
  db: Kysely<Database>;
  log: Logger;
  actor: Actor;
  /** The caller's mode: a test-mode key acts on test mail only. */
  mode: SendMode;
  userId: string;
  emailId: string;
  input: RescheduleInput;
}): Promise<{ readonly email: Awaited<ReturnType<typeof getEmailView>>; readonly due: boolean }> {
  const { db, userId, emailId } = deps;
  const email = await findAccountEmail(db, userId, emailId);
  if (!email) throw emailNotFound();
  refuseLiveEffect(deps.mode, email.mode);
  const scheduledAt = new Date(deps.input.scheduledAt).toISOString();
  const at = isoNow();
  const moved = await db.transaction().execute(async (trx) => {
    if (!(await markRescheduled(trx, userId, emailId, scheduledAt, at))) return false;
    const job = { queue: EMAIL_SEND_QUEUE, dedupeKey: emailId };
    // The worker claimed it between the two reads: leave the message as it was.
    if (!(await rescheduleQueuedJob(trx, job, scheduledAt, at))) throw emailNotScheduled();
    await recordEmailEvent(trx, {
      emailId,
      userId,
      type: 'rescheduled',
      message: `scheduled for ${scheduledAt}`,
      at,
    });
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'email.rescheduled',
      resource: 'email',
      resourceId: emailId,
      details: { from: email.scheduled_at, to: scheduledAt },
    });
    return true;
  });
  if (!moved) throw emailNotScheduled(undefined, { status: email.status, scheduledAt: email.scheduled_at });
  deps.log.info({ event: 'email_rescheduled', emailId, userId, scheduledAt }, 'email rescheduled');
  const view = await getEmailView({ db, userId, emailId });
  return { email: view, due: Date.parse(scheduledAt) <= Date.now() };
}
