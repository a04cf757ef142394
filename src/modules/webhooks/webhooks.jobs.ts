import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { EnqueueResult } from '../../jobs/enqueue';
import type { Logger } from '../../shared/logger';
import { createSealer } from '../../shared/seal';
import type { JobHandler } from '../../jobs/job-handler';
import { PermanentJobError } from '../../jobs/job-handler';
import { guardFromConfig } from '../../mail/address-guard';
import type { HostResolver } from './host-resolver';
import { createHostResolver } from './host-resolver';
import { deliverAttempt } from './webhook-delivery';
import type { WebhookJob } from './webhook-dispatch';
import { DISPATCH_INTERVAL_MS, fanOut, pruneDispatchJobs, scheduleDispatch } from './webhook-dispatch';
import { DELIVERY_TIMEOUT_MS } from './webhook-request';

const jobPayload = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('deliver'),
    deliveryId: z.string().min(1),
    outboxId: z.string().min(1),
    webhookId: z.string().min(1),
    attempt: z.number().int().min(1),
    redeliveryOf: z.string().min(1).optional(),
  }),
  z.object({ kind: z.literal('dispatch'), slot: z.string() }),
]);

export function parseWebhookJob(payload: unknown): WebhookJob {
  const parsed = jobPayload.safeParse(payload);
  if (!parsed.success) throw new PermanentJobError('malformed webhook-delivery job payload');
  return parsed.data;
}

export interface WebhookHandlerDeps {
  readonly db: Kysely<Database>;
  readonly config: Pick<
    AppConfig,
    | 'secretKey'
    | 'dnsServers'
    | 'webhookRetryBaseMs'
    | 'webhookMaxAttempts'
    | 'webhookAllowPrivate'
    | 'webhookAllowedCidrs'
  >;
  /** Defaults to the job's logger. */
  readonly logger?: Logger | undefined;
  /** 10 s per the spec; tests shorten it. */
  readonly timeoutMs?: number | undefined;
  /** How often the outbox is swept (1 s). */
  readonly dispatchIntervalMs?: number | undefined;
  readonly resolve?: HostResolver | undefined;
}

/**
 * The `webhook-delivery` queue's handler. Two kinds of job share it: `dispatch`
 * sweeps the outbox into deliveries (and first enqueues the next sweep, so the
 * chain survives a failed one); `deliver` is one HTTP attempt of one delivery.
 */
export function createWebhookHandlers(deps: WebhookHandlerDeps): { 'webhook-delivery': JobHandler } {
  const { db, config } = deps;
  const sealer = createSealer({ secretKey: config.secretKey });
  const guard = guardFromConfig(config);
  const resolve = deps.resolve ?? createHostResolver({ servers: config.dnsServers });
  const intervalMs = deps.dispatchIntervalMs ?? DISPATCH_INTERVAL_MS;

  const handler: JobHandler = async (job, ctx) => {
    const log = (deps.logger ?? ctx.logger).child({ module: 'webhooks' });
    const payload = parseWebhookJob(job.payload);
    if (payload.kind === 'deliver') {
      await deliverAttempt(
        {
          db,
          sealer,
          guard,
          resolve,
          retryBaseMs: config.webhookRetryBaseMs,
          maxAttempts: config.webhookMaxAttempts,
          timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS,
          log,
        },
        payload,
        ctx.signal,
      );
      return;
    }
    await scheduleDispatch(db, { intervalMs, slot: 'next' });
    await pruneDispatchJobs(db);
    const summary = await fanOut(db, { signal: ctx.signal });
    if (summary.events > 0) log.info({ event: 'webhook_dispatch', ...summary });
  };
  return { 'webhook-delivery': handler };
}

/** Starts the outbox sweep chain; idempotent (one job per slot), so every worker start may call it. */
export async function seedWebhookSchedules(
  db: Kysely<Database>,
  options: { readonly dispatchIntervalMs?: number | undefined } = {},
): Promise<EnqueueResult> {
  return scheduleDispatch(db, { intervalMs: options.dispatchIntervalMs, slot: 'current' });
}
