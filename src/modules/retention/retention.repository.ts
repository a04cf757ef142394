import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, JobState } from '../../db/schema';

/**
 * The retention sweep's statements. Each prune is a read that picks at most
 * `limit` keys through an index (a WAL reader: no lock), then one DELETE of those
 * keys that re-checks the condition, so a row changed in between is left alone
 * and the write lock is held only for the keyed deletes.
 */

const PENDING: readonly JobState[] = ['queued', 'running'];

export interface FinishedJobsQuery {
  readonly queue: string;
  readonly state: Extract<JobState, 'succeeded' | 'failed'>;
  /** RFC 3339: jobs that finished before this instant. */
  readonly before: string;
}

/**
 * Walks jobs_claim (queue, state, run_at): a job runs at or after its run_at, so
 * one that finished before `before` has run_at before it too. Rows that were due
 * before `before` but finished after are skipped by the filter (a few: jobs that
 * waited out a worker outage).
 */
export async function selectFinishedJobs(
  db: Kysely<Database>,
  q: FinishedJobsQuery,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('id')
    .where('queue', '=', q.queue)
    .where('state', '=', q.state)
    .where('run_at', '<', q.before)
    .where('finished_at', '<', q.before)
    .orderBy('run_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteFinishedJobs(
  db: Kysely<Database>,
  q: FinishedJobsQuery,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .deleteFrom('jobs')
    .where('id', 'in', [...ids])
    .where('queue', '=', q.queue)
    .where('state', '=', q.state)
    .where('finished_at', '<', q.before)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Outbox rows fanned out before `before` none of whose deliveries is still queued
 * or running. A delivery job's dedupe key is `<outboxId>:<webhookId>[:<attempt>]`
 * (webhook-dispatch.ts), so its jobs are the range [`<id>:`, `<id>;`) of
 * jobs_dedupe (';' follows ':' in ASCII).
 */
function noPendingDelivery(webhookQueue: string) {
  return sql<boolean>`not exists (
    select 1 from jobs
    where jobs.queue = ${webhookQueue}
      and jobs.dedupe_key >= outbox.id || ':'
      and jobs.dedupe_key < outbox.id || ';'
      and jobs.state in (${sql.join(PENDING)})
  )`;
}

export async function selectExpiredOutbox(
  db: Kysely<Database>,
  q: { readonly before: string; readonly webhookQueue: string },
  limit: number,
): Promise<string[]> {
  // outbox_pending (dispatched_at, id): the range below `before` holds only dispatched rows.
  const rows = await db
    .selectFrom('outbox')
    .select('id')
    .where('dispatched_at', '<', q.before)
    .where(noPendingDelivery(q.webhookQueue))
    .orderBy('dispatched_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteExpiredOutbox(
  db: Kysely<Database>,
  q: { readonly before: string; readonly webhookQueue: string },
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .deleteFrom('outbox')
    .where('id', 'in', [...ids])
    .where('dispatched_at', '<', q.before)
    .where(noPendingDelivery(q.webhookQueue))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface IdempotencyKeyRef {
  readonly user_id: string;
  readonly key: string;
}

/**
 * No index leads with created_at (the send path would pay for one); the table
 * holds about a day of keyed sends, and its rows sit in insertion order, so the
 * oldest come first in the scan.
 */
export async function selectExpiredIdempotencyKeys(
  db: Kysely<Database>,
  before: string,
  limit: number,
): Promise<IdempotencyKeyRef[]> {
  return db
    .selectFrom('idempotency_keys')
    .select(['user_id', 'key'])
    .where('created_at', '<', before)
    .limit(limit)
    .execute();
}

/** `(a, b) in (values …)`: portable, and SQLite drives it through the primary key. */
export async function deleteIdempotencyKeys(
  db: Kysely<Database>,
  before: string,
  keys: readonly IdempotencyKeyRef[],
): Promise<number> {
  if (keys.length === 0) return 0;
  const values = sql.join(keys.map((k) => sql`(${k.user_id}, ${k.key})`));
  const res = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .where(sql<boolean>`(user_id, ${sql.ref('key')}) in (values ${values})`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface QuotaBucketRef {
  readonly scope: string;
  readonly scope_id: string;
  readonly minute: string;
}

/** `beforeMinute` in the buckets' `YYYY-MM-DDTHH:MM` form. Small table: a few days of minutes per scope. */
export async function selectExpiredQuotaBuckets(
  db: Kysely<Database>,
  beforeMinute: string,
  limit: number,
): Promise<QuotaBucketRef[]> {
  return db
    .selectFrom('quota_buckets')
    .select(['scope', 'scope_id', 'minute'])
    .where('minute', '<', beforeMinute)
    .limit(limit)
    .execute();
}

export async function deleteQuotaBuckets(
  db: Kysely<Database>,
  beforeMinute: string,
  keys: readonly QuotaBucketRef[],
): Promise<number> {
  if (keys.length === 0) return 0;
  const values = sql.join(keys.map((k) => sql`(${k.scope}, ${k.scope_id}, ${k.minute})`));
  const res = await db
    .deleteFrom('quota_buckets')
    .where('minute', '<', beforeMinute)
    .where(sql<boolean>`(scope, scope_id, minute) in (values ${values})`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Ledger ids sort by creation time (shared/ids.ts), so `id < idFloor` walks the
 * primary key over exactly the old rows: no created_at index on the send path.
 */
export async function selectExpiredLedger(
  db: Kysely<Database>,
  q: { readonly before: string; readonly idFloor: string },
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('quota_ledger')
    .select('id')
    .where('id', '<', q.idFloor)
    .where('created_at', '<', q.before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteLedger(
  db: Kysely<Database>,
  q: { readonly before: string },
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .deleteFrom('quota_ledger')
    .where('id', 'in', [...ids])
    .where('created_at', '<', q.before)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Captures of test mail (migration 011) taken before `before`, oldest first. */
export async function selectExpiredCaptures(
  db: Kysely<Database>,
  before: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('captured_messages')
    .select('email_id')
    .where('captured_at', '<', before)
    .orderBy('captured_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.email_id);
}

/** The message row, its events and status stay: only the captured bytes go (the view then says `pruned`). */
export async function deleteCaptures(
  db: Kysely<Database>,
  before: string,
  emailIds: readonly string[],
): Promise<number> {
  if (emailIds.length === 0) return 0;
  const res = await db
    .deleteFrom('captured_messages')
    .where('captured_at', '<', before)
    .where('email_id', 'in', emailIds)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
