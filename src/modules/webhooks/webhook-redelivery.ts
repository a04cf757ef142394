import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import type { DeliverJob } from './webhook-dispatch';
import { enqueueAttempt } from './webhook-dispatch';
import * as repo from './webhooks.repository';
import {
  webhookAttemptNotFound,
  webhookDisabled,
  webhookEventExpired,
  webhookNotFound,
} from './webhooks.errors';

export interface RedeliveryQueued {
  readonly webhookId: string;
  /** The attempt whose event is sent again. */
  readonly attemptId: string;
  readonly event: string;
  /** The new delivery's `X-Mail-Delivery-Id`, as the attempt log will show it. */
  readonly deliveryId: string;
  /** The delivery id of the attempt redelivered. */
  readonly redeliveryOf: string;
  readonly createdAt: string;
}

/**
 * "Redeliver" (issue 29 item 10): a new delivery of the attempt's event to this endpoint, with a
 * new delivery id (a receiver that deduplicates on `X-Mail-Delivery-Id` would drop a repeat of
 * the old one, and asking again means "process it again"), the same outbox row and so the same
 * body, its own retries. Queued, with its audit entry, in one transaction, like the test event.
 */
export async function redeliverAttempt(deps: {
  readonly db: Kysely<Database>;
  readonly userId: string;
  readonly actor: Actor;
  readonly id: string;
  readonly attemptId: string;
}): Promise<RedeliveryQueued> {
  return deps.db.transaction().execute(async (trx) => {
    const hook = await repo.findWebhook(trx, deps.userId, deps.id);
    if (!hook) throw webhookNotFound();
    const attempt = await repo.findAttempt(trx, deps.userId, hook.id, deps.attemptId);
    if (!attempt) throw webhookAttemptNotFound();
    // Its deliveries would be skipped: say so instead of queueing nothing.
    if (hook.enabled === 0) {
      throw webhookDisabled(
        'This webhook is disabled; enable it (POST /v1/webhooks/{id}/enable) before redelivering an attempt',
      );
    }
    const outbox = await repo.findOutbox(trx, attempt.outbox_id);
    if (!outbox || outbox.user_id !== deps.userId) throw webhookEventExpired();
    const job: DeliverJob = {
      kind: 'deliver',
      deliveryId: newId('whd'),
      outboxId: outbox.id,
      webhookId: hook.id,
      attempt: 1,
      redeliveryOf: attempt.delivery_id,
    };
    await enqueueAttempt(trx, job);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'webhook.redelivered',
      resource: 'webhook',
      resourceId: hook.id,
      details: {
        attemptId: attempt.id,
        event: outbox.event,
        deliveryId: job.deliveryId,
        redeliveryOf: attempt.delivery_id,
      },
    });
    return {
      webhookId: hook.id,
      attemptId: attempt.id,
      event: outbox.event,
      deliveryId: job.deliveryId,
      redeliveryOf: attempt.delivery_id,
      createdAt: isoNow(),
    };
  });
}
