import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, OutboxTable, WebhookAttemptsTable, WebhooksTable } from '../../db/schema';

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type OutboxRow = Selectable<OutboxTable>;

export async function insertWebhook(db: Kysely<Database>, row: Insertable<WebhooksTable>): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function findWebhook(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listWebhooks(db: Kysely<Database>, userId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function countWebhooks(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type WebhookPatch = Pick<
  Updateable<WebhooksTable>,
  | 'url'
  | 'events'
  | 'enabled'
  | 'disabled_reason'
  | 'disabled_at'
  | 'consecutive_failures'
  | 'updated_at'
  | 'payload_format'
  | 'secret_sealed'
>;

export async function updateWebhook(
  db: Kysely<Database>,
  userId: string,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set(patch)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteWebhook(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('webhooks')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** An endpoint's newest attempts, newest first. */
export async function listAttempts(
  db: Kysely<Database>,
  userId: string,
  webhookId: string,
  limit: number,
): Promise<WebhookAttemptRow[]> {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One attempt of an endpoint of the account, or undefined. */
export async function findAttempt(
  db: Kysely<Database>,
  userId: string,
  webhookId: string,
  attemptId: string,
): Promise<WebhookAttemptRow | undefined> {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('id', '=', attemptId)
    .where('webhook_id', '=', webhookId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertAttempt(db: Kysely<Database>, row: WebhookAttemptRow): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute();
}

/**
 * Bounds the attempt log: an endpoint keeps its newest `keep` attempts, plus
 * everything younger than `olderThan` (so counts over the last hour stay exact).
 */
export async function pruneAttempts(
  db: Kysely<Database>,
  webhookId: string,
  keep: number,
  olderThan: string,
): Promise<void> {
  await db
    .deleteFrom('webhook_attempts')
    .where('webhook_id', '=', webhookId)
    .where('created_at', '<', olderThan)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('webhook_attempts')
        .select('id')
        .where('webhook_id', '=', webhookId)
        .orderBy('id', 'desc')
        .limit(keep),
    )
    .execute();
}

/** Failed attempts since `since`, all accounts (for `mail_webhook_failures_last_hour`). */
export async function countFailedAttemptsSince(db: Kysely<Database>, since: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('created_at', '>=', since)
    .where('succeeded', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findWebhookForDelivery(
  db: Kysely<Database>,
  id: string,
): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function recordSuccess(db: Kysely<Database>, webhookId: string, at: string): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ consecutive_failures: 0, last_success_at: at })
    .where('id', '=', webhookId)
    .execute();
}

/**
 * Counts a failed attempt; at `threshold` consecutive failures an enabled endpoint
 * is disabled. `disabledNow` is true only for the attempt that disabled it.
 */
export async function recordFailure(
  db: Kysely<Database>,
  webhookId: string,
  at: string,
  threshold: number,
): Promise<{ consecutiveFailures: number; disabledNow: boolean; enabled: boolean }> {
  const row = await db
    .updateTable('webhooks')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1), last_failure_at: at }))
    .where('id', '=', webhookId)
    .returning(['consecutive_failures', 'enabled'])
    .executeTakeFirst();
  if (!row) return { consecutiveFailures: 0, disabledNow: false, enabled: false };
  if (row.enabled === 0 || row.consecutive_failures < threshold) {
    return { consecutiveFailures: row.consecutive_failures, disabledNow: false, enabled: row.enabled === 1 };
  }
  const res = await db
    .updateTable('webhooks')
    .set({ enabled: 0, disabled_reason: 'consecutive_failures', disabled_at: at, updated_at: at })
    .where('id', '=', webhookId)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return {
    consecutiveFailures: row.consecutive_failures,
    disabledNow: res.numUpdatedRows > 0n,
    enabled: false,
  };
}

/** Outbox rows not yet fanned out, oldest first. */
export async function listPendingOutbox(db: Kysely<Database>, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('outbox')
    .selectAll()
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** An outbox row for one endpoint only (the test event): born dispatched, so the sweep skips it. */
export async function insertDispatchedOutbox(db: Kysely<Database>, row: OutboxRow): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

export async function findOutbox(db: Kysely<Database>, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The enabled endpoints of these accounts (the fan-out filters them by event). */
export async function listEnabledWebhooks(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Pick<WebhookRow, 'id' | 'user_id' | 'events'>[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('webhooks')
    .select(['id', 'user_id', 'events'])
    .where('user_id', 'in', [...userIds])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

/** Returns the ids this call marked (a concurrent sweep may have taken some). */
export async function markOutboxDispatched(
  db: Kysely<Database>,
  ids: readonly string[],
  at: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('outbox')
    .set({ dispatched_at: at })
    .where('id', 'in', [...ids])
    .where('dispatched_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Dispatch sweeps run every second, one job row each: finished ones are deleted
 * once their slot is `before` or earlier, so the chain does not grow the job
 * table by 86,400 rows a day. Their dedupe keys embed the slot time, which
 * sorts as text, so the range walks the (queue, dedupe_key) index.
 */
export async function pruneDispatchJobs(
  db: Kysely<Database>,
  queue: string,
  keyPrefix: string,
  before: string,
): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('queue', '=', queue)
    .where('dedupe_key', '>=', keyPrefix)
    .where('dedupe_key', '<', `${keyPrefix}${before}`)
    .where('state', 'in', ['succeeded', 'failed'])
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
