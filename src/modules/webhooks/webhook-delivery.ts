import type { Kysely } from 'kysely';
import type { Database, SendMode } from '../../db/schema';
import type { BackoffPolicy } from '../../jobs/backoff';
import { backoffMs } from '../../jobs/backoff';
import { sortableId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { Sealer } from '../../shared/seal';
import { PermanentJobError } from '../../jobs/job-handler';
import { systemActor, recordAudit } from '../audit';
import type { AddressGuard } from '../../mail/address-guard';
import type { HostResolver } from './host-resolver';
import type { DeliverJob } from './webhook-dispatch';
import { enqueueAttempt } from './webhook-dispatch';
import type { RequestOutcome } from './webhook-request';
import { postWebhook } from './webhook-request';
import { resendPayload } from './resend-payload';
import { secretContext, signatureHeaders } from './webhook-signature';
import { TEST_EVENT } from './webhook-test-event';
import { urlHost } from './webhook-url';
import * as repo from './webhooks.repository';

/** Spec: Webhook state. An endpoint that fails this many times in a row is disabled. */
export const DISABLE_AFTER_FAILURES = 20;
export const USER_AGENT = 'Mailroom-Webhooks/1.0';
/** The attempt log keeps an endpoint's newest 100 attempts, and everything from the last day. */
const ATTEMPTS_KEPT = 100;
const ATTEMPTS_KEPT_MS = 24 * 3600_000;
/** Ceiling of one retry delay; with the defaults (30 s base, 6 attempts) it is never reached. */
const MAX_RETRY_DELAY_MS = 6 * 3600_000;

export interface DeliveryDeps {
  readonly db: Kysely<Database>;
  readonly sealer: Sealer;
  readonly guard: AddressGuard;
  readonly resolve: HostResolver;
  /** WEBHOOK_RETRY_BASE_MS */
  readonly retryBaseMs: number;
  /** WEBHOOK_MAX_ATTEMPTS: HTTP attempts per delivery, the first included. */
  readonly maxAttempts: number;
  readonly timeoutMs: number;
  readonly log: Logger;
  readonly random?: (() => number) | undefined;
}

/** Delay before attempt `failed + 1`: base, 2×base, 4×base … plus up to 25 % jitter. */
export function retryDelayMs(
  failedAttempt: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const policy: BackoffPolicy = { baseMs, maxMs: Math.max(baseMs, MAX_RETRY_DELAY_MS), jitter: 0.25 };
  return backoffMs(failedAttempt, policy, random);
}

/**
 * Runs one HTTP attempt of a delivery and records it: the attempt log, the
 * endpoint's consecutive-failure count (disabling it at 20), and on failure the
 * next attempt as a new job due after the backoff, all in one transaction. An
 * HTTP failure is an outcome, not an exception; the handler throws only when it
 * could not record one, and the job runner then runs this attempt again.
 */
export async function deliverAttempt(
  deps: DeliveryDeps,
  job: DeliverJob,
  signal: AbortSignal,
): Promise<void> {
  const base = { webhookId: job.webhookId, deliveryId: job.deliveryId, attempt: job.attempt };
  const hook = await repo.findWebhookForDelivery(deps.db, job.webhookId);
  const outbox = await repo.findOutbox(deps.db, job.outboxId);
  // A delivery belongs to the endpoint's account only; anything else is a corrupt job, not a send.
  const skip = !hook
    ? 'webhook_deleted'
    : !outbox || outbox.user_id !== hook.user_id
      ? 'event_missing'
      : hook.enabled === 0
        ? 'webhook_disabled'
        : undefined;
  if (skip !== undefined || !hook || !outbox) {
    deps.log.info({ event: 'webhook_delivery_skipped', ...base, reason: skip });
    return;
  }
  let secret: string;
  try {
    secret = deps.sealer.open(hook.secret_sealed, secretContext(hook.id));
  } catch (err) {
    deps.log.error({ event: 'webhook_secret_unreadable', ...base, err });
    throw new PermanentJobError('webhook secret cannot be opened (SECRET_KEY changed?)', { cause: err });
  }

  const url = new URL(hook.url);
  const body =
    hook.payload_format === 'resend'
      ? await resendPayload(deps.db, hook.user_id, outbox.payload)
      : outbox.payload;
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Mail-Event': outbox.event,
    'X-Mail-Delivery-Id': job.deliveryId,
    ...signatureHeaders(secret, job.deliveryId, body, Math.floor(Date.now() / 1000)),
  };
  const outcome = await postWebhook({
    url,
    body,
    headers,
    guard: deps.guard,
    resolve: deps.resolve,
    timeoutMs: deps.timeoutMs,
    signal,
  });
  // Stopped by shutdown or a lost lease: not the receiver's failure. The job comes back through its lease.
  if (!outcome.ok && signal.aborted) throw new Error('webhook delivery interrupted');

  const sent: SentRequest = { headers, body, mode: attemptMode(outbox.event, outbox.payload) };
  const recorded = await record(deps, job, hook.user_id, outbox.event, sent, outcome);
  const fields = { ...base, userId: hook.user_id, webhookEvent: outbox.event, host: urlHost(url) };
  if (outcome.ok) {
    deps.log.info({
      event: 'webhook_delivered',
      ...fields,
      httpStatus: outcome.httpStatus,
      durationMs: outcome.durationMs,
    });
    return;
  }
  deps.log.warn({
    event: 'webhook_delivery_failed',
    ...fields,
    httpStatus: outcome.httpStatus,
    error: outcome.error,
    refused: outcome.refused,
    durationMs: outcome.durationMs,
    consecutiveFailures: recorded.consecutiveFailures,
    nextAttemptAt: recorded.nextAttemptAt,
    gaveUp: recorded.nextAttemptAt === null,
  });
  if (recorded.disabledNow) {
    deps.log.warn({
      event: 'webhook_disabled',
      webhookId: hook.id,
      userId: hook.user_id,
      consecutiveFailures: recorded.consecutiveFailures,
    });
  }
}

/** What an attempt sent (or tried to: a refused address or a failed lookup sends nothing), as the log keeps it. */
interface SentRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly mode: SendMode;
}

/**
 * `test` for the dashboard's test event and for events of test-mode mail, whose payloads carry
 * `mode: "test"` (webhook-outbox.repository.ts); everything else is live.
 */
export function attemptMode(event: string, payload: string): SendMode {
  if (event === TEST_EVENT) return 'test';
  try {
    return (JSON.parse(payload) as { mode?: unknown }).mode === 'test' ? 'test' : 'live';
  } catch {
    return 'live';
  }
}

interface Recorded {
  readonly consecutiveFailures: number;
  readonly disabledNow: boolean;
  readonly nextAttemptAt: string | null;
}

async function record(
  deps: DeliveryDeps,
  job: DeliverJob,
  userId: string,
  event: string,
  sent: SentRequest,
  outcome: RequestOutcome,
): Promise<Recorded> {
  return deps.db.transaction().execute(async (trx) => {
    const now = new Date();
    const at = now.toISOString();
    await repo.insertAttempt(trx, {
      id: sortableId(now.getTime()),
      webhook_id: job.webhookId,
      user_id: userId,
      delivery_id: job.deliveryId,
      outbox_id: job.outboxId,
      event,
      attempt: job.attempt,
      succeeded: outcome.ok ? 1 : 0,
      http_status: outcome.httpStatus,
      error: outcome.ok ? null : outcome.error,
      duration_ms: outcome.durationMs,
      response_excerpt: outcome.httpStatus === null ? null : outcome.responseExcerpt,
      created_at: at,
      request_headers: JSON.stringify(sent.headers),
      request_body: sent.body,
      mode: sent.mode,
      redelivery_of: job.redeliveryOf ?? null,
    });
    await repo.pruneAttempts(
      trx,
      job.webhookId,
      ATTEMPTS_KEPT,
      new Date(now.getTime() - ATTEMPTS_KEPT_MS).toISOString(),
    );
    if (outcome.ok) {
      await repo.recordSuccess(trx, job.webhookId, at);
      return { consecutiveFailures: 0, disabledNow: false, nextAttemptAt: null };
    }
    const counted = await repo.recordFailure(trx, job.webhookId, at, DISABLE_AFTER_FAILURES);
    if (counted.disabledNow) {
      await recordAudit(trx, {
        actor: systemActor,
        userId,
        action: 'webhook.disabled',
        resource: 'webhook',
        resourceId: job.webhookId,
        details: { consecutiveFailures: counted.consecutiveFailures },
      });
    }
    let nextAttemptAt: string | null = null;
    if (counted.enabled && job.attempt < deps.maxAttempts) {
      const runAt = new Date(now.getTime() + retryDelayMs(job.attempt, deps.retryBaseMs, deps.random));
      await enqueueAttempt(trx, { ...job, attempt: job.attempt + 1 }, runAt);
      nextAttemptAt = runAt.toISOString();
    }
    return {
      consecutiveFailures: counted.consecutiveFailures,
      disabledNow: counted.disabledNow,
      nextAttemptAt,
    };
  });
}
