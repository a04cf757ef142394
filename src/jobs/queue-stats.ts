import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { QueueName } from './queues';
import { QUEUES } from './queues';

/** Every known queue is present (0 when empty); a queue not in QUEUES appears only if it holds live jobs. */
export type QueueDepths = Readonly<Record<QueueName, number> & Record<string, number>>;

/** Jobs not yet terminal (queued, including those waiting out a backoff, plus running), per queue. */
export async function queueDepths(db: Kysely<Database>): Promise<QueueDepths> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => ['queue', eb.fn.countAll<number | string | bigint>().as('n')])
    .where('state', 'in', ['queued', 'running'])
    .groupBy('queue')
    .execute();
  const depths: Record<string, number> = Object.fromEntries(QUEUES.map((q) => [q, 0]));
  // count(*) comes back as a number from SQLite and as a string (bigint) from PostgreSQL.
  for (const row of rows) depths[row.queue] = Number(row.n);
  return depths as QueueDepths;
}

/**
 * How long the longest-waiting due job of `queue` has been waiting since it became
 * due (its run_at), in ms; 0 when none is waiting. Jobs scheduled for later, such
 * as retries in backoff, do not count: they are not late.
 */
export async function oldestQueuedAgeMs(
  db: Kysely<Database>,
  queue: QueueName,
  now: Date = new Date(),
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.min('run_at').as('oldest'))
    .where('queue', '=', queue)
    .where('state', '=', 'queued')
    .where('run_at', '<=', now.toISOString())
    .executeTakeFirst();
  const oldest = row?.oldest;
  return oldest ? Math.max(0, now.getTime() - Date.parse(oldest)) : 0;
}

/**
 * A queue is starved when a due job of it has waited longer than this while none of
 * its jobs runs: nobody is serving it (the worker is down, or other queues hold its
 * slots). A busy queue that still progresses has a job of its own running, whatever
 * its backlog, so it is never starved. Two minutes: longer than any claim poll or
 * retry pause, short enough that `/ready` says so before a user gives up on a send.
 */
export const STARVED_AFTER_MS = 120_000;

export interface QueueWait {
  /** How long the longest-waiting due job has waited (oldestQueuedAgeMs), in whole seconds. */
  readonly oldestRunnableSeconds: number;
  /** Jobs of the queue running under a lease that has not expired. */
  readonly running: number;
  readonly starved: boolean;
}

/** Per known queue: its oldest due job's wait, what runs, and whether it is starved. */
export async function queueWaits(
  db: Kysely<Database>,
  now: Date = new Date(),
): Promise<Record<QueueName, QueueWait>> {
  const waits = await Promise.all(
    QUEUES.map(async (queue): Promise<[QueueName, QueueWait]> => {
      const [oldestMs, running] = await Promise.all([
        oldestQueuedAgeMs(db, queue, now),
        runningCount(db, queue, now),
      ]);
      const starved = oldestMs > STARVED_AFTER_MS && running === 0;
      return [queue, { oldestRunnableSeconds: Math.floor(oldestMs / 1000), running, starved }];
    }),
  );
  return Object.fromEntries(waits) as Record<QueueName, QueueWait>;
}

async function runningCount(db: Kysely<Database>, queue: QueueName, now: Date): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('queue', '=', queue)
    .where('state', '=', 'running')
    .where('lease_expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
