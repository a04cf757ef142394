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
