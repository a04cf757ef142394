import type { Insertable, Kysely } from 'kysely';
import { PreparedQuery } from '../db/precompiled';
import type { Database, JobsTable } from '../db/schema';
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

type JobRow = Pick<
  Required<Insertable<JobsTable>>,
  | 'id'
  | 'queue'
  | 'payload'
  | 'state'
  | 'run_at'
  | 'max_attempts'
  | 'dedupe_key'
  | 'created_at'
  | 'updated_at'
>;

const insertJobRow = new PreparedQuery<JobRow, unknown>((db, s) =>
  db.insertInto('jobs').values({
    id: s.param('id'),
    queue: s.param('queue'),
    payload: s.param('payload'),
    state: s.param('state'),
    run_at: s.param('run_at'),
    max_attempts: s.param('max_attempts'),
    dedupe_key: s.param('dedupe_key'),
    created_at: s.param('created_at'),
    updated_at: s.param('updated_at'),
  }),
);

/**
 * A new message's `email-send` job in the send commit (hot path: compiled once,
 * db/precompiled.ts), written as `enqueue` writes a job. Its dedupe key is the
 * message's id, new in this transaction, so enqueue's ON CONFLICT DO NOTHING cannot
 * apply: a conflict here is a failure of the send (EMAIL_QUEUE_FAILED), never a no-op.
 */
export async function insertNewJob(trx: Kysely<Database>, job: EnqueueInput, now: string): Promise<void> {
  await insertJobRow.run(trx, {
    id: newId('job'),
    queue: job.queue,
    payload: JSON.stringify(job.payload),
    state: 'queued',
    run_at: job.runAt?.toISOString() ?? now,
    max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    dedupe_key: job.dedupeKey ?? null,
    created_at: now,
    updated_at: now,
  });
}
