import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, EmailStatus } from '../../db/schema';

export interface DailyCount {
  /** `YYYY-MM-DD` (UTC day the messages were created). */
  readonly day: string;
  readonly status: EmailStatus;
  readonly count: number;
}

/**
 * The account's messages per creation day and current status from `fromDay` on,
 * read from the trigger-maintained `email_daily_counts` (primary key prefix
 * user_id, day): a year is at most 365 × 9 rows whatever the volume (× the slots
 * written on PostgreSQL, migration 023, summed here).
 */
export async function dailyCounts(
  db: Kysely<Database>,
  userId: string,
  fromDay: string,
): Promise<DailyCount[]> {
  const rows = await db
    .selectFrom('email_daily_counts')
    .select(['day', 'status', (eb) => eb.fn.sum('count').as('count')])
    .where('user_id', '=', userId)
    .where('day', '>=', fromDay)
    .groupBy(['day', 'status'])
    .having((eb) => eb.fn.sum('count'), '>', 0)
    .orderBy('day')
    .orderBy('status')
    .execute();
  return rows.map((r) => ({ day: r.day, status: r.status, count: Number(r.count) }));
}

/**
 * Live messages of every account created after `since`, by current status; test mail
 * (test keys, the simulator) is left out, as from the statistics. Covered by the
 * partial index emails_created_live (migration 024), whose WHERE the literal matches.
 */
export async function emailsCreatedSince(
  db: Kysely<Database>,
  since: string,
): Promise<{ status: EmailStatus; count: number }[]> {
  const rows = await db
    .selectFrom('emails')
    .select((eb) => ['status', eb.fn.countAll<number | string | bigint>().as('n')])
    .where('created_at', '>', since)
    .where('mode', '=', sql.lit('live'))
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
}
