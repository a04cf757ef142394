import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { EMAIL_SEND_QUEUE, EMAIL_SEND_STAGED_QUEUE, STAGED_RETRY_DELAYS_MS } from './send-job';

export interface PendingSend {
  readonly queue: string;
  readonly runAt: string;
  /** Claims of this job so far (hand-off attempts, crashed ones included). */
  readonly attempts: number;
  readonly lastError: string | null;
}

/**
 * The message's hand-off job still to run, if any: its `email-send` job, or a slow retry
 * from `email-send:failed`. Found by dedupe key (the (queue, dedupe_key) index), the key
 * being the email id, or `<id>:<stage>` for the slow retries (send-job.ts).
 */
export async function findPendingSend(
  db: Kysely<Database>,
  emailId: string,
): Promise<PendingSend | undefined> {
  const staged = STAGED_RETRY_DELAYS_MS.map((_, i) => `${emailId}:${i + 1}`);
  const row = await db
    .selectFrom('jobs')
    .select(['queue', 'run_at', 'attempts', 'last_error'])
    .where((eb) =>
      eb.or([
        eb.and([eb('queue', '=', EMAIL_SEND_QUEUE), eb('dedupe_key', '=', emailId)]),
        eb.and([eb('queue', '=', EMAIL_SEND_STAGED_QUEUE), eb('dedupe_key', 'in', staged)]),
      ]),
    )
    .where('state', 'in', ['queued', 'running'])
    .orderBy('run_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { queue: row.queue, runAt: row.run_at, attempts: row.attempts, lastError: row.last_error };
}
