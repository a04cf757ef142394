import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import type { DeliverJob } from './webhook-dispatch';
import { enqueueAttempt } from './webhook-dispatch';
import * as repo from './webhooks.repository';
import { webhookDisabled, webhookNotFound } from './webhooks.errors';

/** The `X-Mail-Event` of a test delivery: no endpoint subscribes to it, so fan-out never sends it. */
export const TEST_EVENT = 'webhook.test';

export interface TestEventQueued {
  readonly webhookId: string;
  readonly event: typeof TEST_EVENT;
  /** The `X-Mail-Delivery-Id`, as the attempt log shows it. */
  readonly deliveryId: string;
  readonly createdAt: string;
}

/**
 * "Send a test event" (issue 19): an outbox row, recorded already dispatched so the
 * sweep leaves it alone, and the first delivery job for this one endpoint, in one
 * transaction. From there it is an ordinary delivery: the worker signs and posts it,
 * records each attempt in the log and retries a failure with the usual backoff.
 */
export async function sendTestEvent(deps: {
  readonly db: Kysely<Database>;
  readonly userId: string;
  readonly actor: Actor;
  readonly id: string;
}): Promise<TestEventQueued> {
  return deps.db.transaction().execute(async (trx) => {
    const hook = await repo.findWebhook(trx, deps.userId, deps.id);
    if (!hook) throw webhookNotFound();
    // The delivery would be skipped: say so instead of queueing nothing.
    if (hook.enabled === 0) throw webhookDisabled();
    const at = isoNow();
    const outboxId = newId('obx');
    await repo.insertDispatchedOutbox(trx, {
      id: outboxId,
      user_id: deps.userId,
      event: TEST_EVENT,
      email_id: null,
      recipient: null,
      payload: JSON.stringify({
        event: TEST_EVENT,
        emailId: null,
        timestamp: at,
        recipient: null,
        webhookId: hook.id,
        message: 'A test event sent from the dashboard or POST /v1/webhooks/{id}/test',
      }),
      created_at: at,
      dispatched_at: at,
    });
    const job: DeliverJob = {
      kind: 'deliver',
      deliveryId: newId('whd'),
      outboxId,
      webhookId: hook.id,
      attempt: 1,
    };
    await enqueueAttempt(trx, job);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'webhook.test_sent',
      resource: 'webhook',
      resourceId: hook.id,
      details: { deliveryId: job.deliveryId },
    });
    return { webhookId: hook.id, event: TEST_EVENT, deliveryId: job.deliveryId, createdAt: at };
  });
}
