import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoNow } from '../shared/clock';
import { newId } from '../shared/ids';
import type { QueueName } from './queues';

/** Attempts a job gets unless its producer says otherwise (the first run counts). */
export const DEFAULT_MAX_ATTEMPTS = 5;

export interface EnqueueInput {
  readonly queue: QueueName;
  /** Stored as JSON; must survive JSON.stringify. */
  readonly payload: unknown;
  /** Not claimed before this instant; now by default. */
  readonly runAt?: Date | undefined;
  readonly maxAttempts?: number | undefined;
  /**
   * At most one job per (queue, dedupeKey) for as long as that row exists,
   * whatever its state: the key behaves as an idempotency key, so a producer
   * that runs twice (a retried handler, a repeated MTA hook) enqueues once.
   */
  readonly dedupeKey?: string | undefined;
}

export interface EnqueueResult {
  /** The new job's id, or the existing job's when the dedupe key was already taken. */
  readonly id: string;
  readonly created: boolean;
}

/**
 * Adds a job. Takes `db` or a transaction: a producer enqueues in the same
 * transaction as the row the job is about, so both commit or neither does.
 */
export async function enqueue(db: Kysely<Database>, input: EnqueueInput): Promise<EnqueueResult> {
  const payload = JSON.stringify(input.payload) as string | undefined;
  if (payload === undefined) throw new TypeError(`job payload for ${input.queue} is not JSON-serialisable`);
  const maxAttempts = input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  }
  const now = isoNow();
  const id = newId('job');
  const dedupeKey = input.dedupeKey ?? null;
  const inserted = await db
    .insertInto('jobs')
    .values({
      id,
      queue: input.queue,
      payload,
      state: 'queued',
      run_at: input.runAt?.toISOString() ?? now,
      max_attempts: maxAttempts,
      dedupe_key: dedupeKey,
      created_at: now,
      updated_at: now,
    })
    // NULL keys never conflict in a unique index (SQLite and PostgreSQL alike), so jobs without a key are unaffected.
    .onConflict((oc) => oc.columns(['queue', 'dedupe_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await db
    .selectFrom('jobs')
    .select('id')
    .where('queue', '=', input.queue)
    .where('dedupe_key', '=', dedupeKey)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}
