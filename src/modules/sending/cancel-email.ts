import type { Kysely } from 'kysely';
import type { Database, SendMode } from '../../db/schema';
import { refuseLiveEffect } from '../../shared/test-mode';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import { recordEmailEvent } from '../emails';
import { emailNotCancellable, emailNotFound } from '../emails';
import { findAccountEmail, markCancelled } from '../emails';
import { getEmailView } from '../emails';
import { refundQuota } from '../quota';

/**
 * Cancels a message the worker has not picked up yet (scheduled or still
 * queued). Its quota is given back; the queued job finds it cancelled and skips it.
 * The audit entry is written in the same transaction (both surfaces: /v1 and Resend's).
 */
export async function cancelEmail(deps: {
  db: Kysely<Database>;
  log: Logger;
  actor: Actor;
  /** The caller's mode: a test-mode key acts on test mail only. */
  mode: SendMode;
  userId: string;
  emailId: string;
}) {
  const { db, userId, emailId } = deps;
  const email = await findAccountEmail(db, userId, emailId);
  if (!email) throw emailNotFound();
  refuseLiveEffect(deps.mode, email.mode);
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
    await recordAudit(trx, {
      actor: deps.actor,
      userId,
      action: 'email.cancelled',
      resource: 'email',
      resourceId: emailId,
      details: { status: email.status, scheduledAt: email.scheduled_at },
    });
    return true;
  });
  if (!cancelled) throw emailNotCancellable(undefined, { status: email.status });
  deps.log.info({ event: 'email_cancelled', emailId, userId }, 'email cancelled');
  return getEmailView({ db, userId, emailId });
}
