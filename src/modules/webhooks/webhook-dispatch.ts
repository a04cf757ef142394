import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { EnqueueResult } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import { newId } from '../../shared/ids';
import { parseEvents } from './webhook-events';
import * as repo from './webhooks.repository';

/** Both job kinds run on the spec's queue, so `mail_queue_depth{queue="webhook-delivery"}` shows the backlog. */
export const WEBHOOK_QUEUE = 'webhook-delivery';
/** How often the outbox is swept: the most an event waits before its deliveries are queued. */
export const DISPATCH_INTERVAL_MS = 1_000;
const DISPATCH_KEY = 'dispatch:';
/**
 * Runner-level attempts of one job, not HTTP attempts: each is spent by a worker
 * that died or stalled past its lease (or a database error) while running it. A
 * crash-looping worker re-claims the same in-flight jobs first after every crash,
 * so a small budget would lose deliveries to a few crashes in a row.
 */
export const DELIVER_JOB_MAX_ATTEMPTS = 10;
/** The sweep is cheap and idempotent, and a sweep that dies ends the chain: it gets a large budget. */
export const DISPATCH_JOB_MAX_ATTEMPTS = 100;
/** Outbox rows per fan-out transaction. */
const BATCH = 100;
/** A sweep stops after this many rows; the next one (a slot later) continues. */
const MAX_PER_SWEEP = 5_000;
/** Finished sweep jobs are deleted once their slot is this old. */
const SWEEP_JOB_RETENTION_MS = 60_000;

/** One HTTP attempt of one delivery. `deliveryId` is chosen at fan-out and kept on every retry. */
export interface DeliverJob {
  readonly kind: 'deliver';
  readonly deliveryId: string;
  readonly outboxId: string;
  readonly webhookId: string;
  /** 1 on the first attempt. */
  readonly attempt: number;
  /**
   * Set on a redelivery (POST /v1/webhooks/{id}/attempts/{attemptId}/redeliver): the delivery
   * id it repeats. A redelivery is a delivery of its own, with a new `deliveryId`.
   */
  readonly redeliveryOf?: string | undefined;
}

export interface DispatchJob {
  readonly kind: 'dispatch';
  readonly slot: string;
}

export type WebhookJob = DeliverJob | DispatchJob;

/**
 * The job key of a delivery's attempt: `<outboxId>:<webhookId>` for the first, `:<n>` after.
 * The fan-out's key leaves the random delivery id out, so a row swept twice still makes one
 * delivery; a redelivery's key has it (`<outboxId>:<webhookId>:<deliveryId>[:<n>]`), as each
 * is asked for once. Both start `<outboxId>:`, which retention reads as "still pending".
 */
export function deliveryJobKey(job: DeliverJob): string {
  const delivery = job.redeliveryOf === undefined ? '' : `:${job.deliveryId}`;
  const attempt = job.attempt === 1 ? '' : `:${job.attempt}`;
  return `${job.outboxId}:${job.webhookId}${delivery}${attempt}`;
}

export async function enqueueAttempt(
  db: Kysely<Database>,
  job: DeliverJob,
  runAt?: Date,
): Promise<EnqueueResult> {
  return enqueue(db, {
    queue: WEBHOOK_QUEUE,
    payload: job,
    runAt,
    maxAttempts: DELIVER_JOB_MAX_ATTEMPTS,
    dedupeKey: deliveryJobKey(job),
  });
}

export interface FanOutSummary {
  /** Outbox rows this sweep marked dispatched. */
  readonly events: number;
  /** Deliveries queued for them. */
  readonly deliveries: number;
}

/**
 * Turns pending outbox rows into one delivery job per (event, subscribed enabled
 * endpoint of the event's account), and marks the rows dispatched in the same
 * transaction: a crash leaves either both or neither. Idempotent twice over:
 * a dispatched row is not read again, and the job's dedupe key
 * `<outboxId>:<webhookId>` admits one delivery even if a row were swept twice.
 */
export async function fanOut(
  db: Kysely<Database>,
  options: { readonly now?: () => Date; readonly signal?: AbortSignal | undefined } = {},
): Promise<FanOutSummary> {
  let events = 0;
  let deliveries = 0;
  while (events < MAX_PER_SWEEP && !options.signal?.aborted) {
    // A read first: an idle sweep (every second) should not take the write lock for nothing.
    if (!db.isTransaction && (await repo.listPendingOutbox(db, 1)).length === 0) break;
    const batch = await db.transaction().execute(async (trx) => {
      const rows = await repo.listPendingOutbox(trx, BATCH);
      if (rows.length === 0) return undefined;
      const hooks = await repo.listEnabledWebhooks(trx, [...new Set(rows.map((r) => r.user_id))]);
      const subscribed = hooks.map((h) => ({ ...h, events: new Set<string>(parseEvents(h.events)) }));
      let queued = 0;
      for (const row of rows) {
        for (const hook of subscribed) {
          if (hook.user_id !== row.user_id || !hook.events.has(row.event)) continue;
          const job: DeliverJob = {
            kind: 'deliver',
            deliveryId: newId('whd'),
            outboxId: row.id,
            webhookId: hook.id,
            attempt: 1,
          };
          if ((await enqueueAttempt(trx, job)).created) queued++;
        }
      }
      const marked = await repo.markOutboxDispatched(
        trx,
        rows.map((r) => r.id),
        (options.now?.() ?? new Date()).toISOString(),
      );
      return { events: marked.length, deliveries: queued };
    });
    if (!batch) break;
    events += batch.events;
    deliveries += batch.deliveries;
  }
  return { events, deliveries };
}

/**
 * Enqueues the sweep of the slot `now` falls in (or the next one). The key names
 * the slot, so the worker's start and the previous sweep may both ask: one job
 * per slot results.
 */
export async function scheduleDispatch(
  db: Kysely<Database>,
  options: {
    readonly intervalMs?: number | undefined;
    readonly now?: Date | undefined;
    readonly slot?: 'current' | 'next';
  } = {},
): Promise<EnqueueResult> {
  const interval = options.intervalMs ?? DISPATCH_INTERVAL_MS;
  const index =
    Math.floor((options.now ?? new Date()).getTime() / interval) + (options.slot === 'next' ? 1 : 0);
  const runAt = new Date(index * interval);
  const slot = runAt.toISOString();
  const job: DispatchJob = { kind: 'dispatch', slot };
  return enqueue(db, {
    queue: WEBHOOK_QUEUE,
    payload: job,
    runAt,
    maxAttempts: DISPATCH_JOB_MAX_ATTEMPTS,
    dedupeKey: `${DISPATCH_KEY}${slot}`,
  });
}

/** Deletes finished sweep jobs whose slot is over a minute old. */
export async function pruneDispatchJobs(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SWEEP_JOB_RETENTION_MS).toISOString();
  return repo.pruneDispatchJobs(db, WEBHOOK_QUEUE, DISPATCH_KEY, before);
}
