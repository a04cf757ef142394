import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { AbuseStateTable, Database, EmailStatus } from '../../db/schema';
import { asciiLower } from '../../shared/text';
import { SIMULATOR_DOMAIN } from '../../mail/simulator';
import type { SignalInputs } from './signals';
import { THRESHOLDS } from './signals';

/**
 * Simulator recipients and test mail cost no reputation (issue 21): their bounces,
 * complaints and repetitions are the account testing its integration, not its
 * recipients' verdict. (Volume still counts them: the quota ledger, test mail apart.)
 */
const SIMULATOR_ADDRESSES = `%@${asciiLower(SIMULATOR_DOMAIN)}`;
// lower(): SQLite's LIKE ignores ASCII case and PostgreSQL's does not (issue 23).
const notSimulator = sql<boolean>`lower(${sql.ref('email_recipients.address')}) not like ${SIMULATOR_ADDRESSES}`;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Recipient states past the hand-off: the population of the rates. */
const PAST_HAND_OFF: readonly EmailStatus[] = [
  'sent',
  'delivered',
  'deferred',
  'bounced',
  'complained',
  'failed',
];

const iso = (ms: number): string => new Date(ms).toISOString();

async function recipientOutcomes(
  db: Kysely<Database>,
  userId: string,
  since: string,
): Promise<Map<EmailStatus, number>> {
  // emails_user_created_status narrows to the window; recipients come by (email_id, address).
  // `attempts > 0` leaves out messages stopped before any attempt (suspension, a domain that
  // lost verification): not the recipients' verdict on this sender.
  const rows = await db
    .selectFrom('emails')
    .innerJoin('email_recipients', 'email_recipients.email_id', 'emails.id')
    .select((eb) => ['email_recipients.status as status', eb.fn.countAll<number | string | bigint>().as('n')])
    .where('emails.user_id', '=', userId)
    .where('emails.created_at', '>', since)
    .where('emails.attempts', '>', 0)
    .where('emails.mode', '=', 'live')
    .where(notSimulator)
    .where('email_recipients.status', 'in', PAST_HAND_OFF)
    .groupBy('email_recipients.status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

async function ledgerSum(
  db: Kysely<Database>,
  userId: string,
  after: string,
  until?: string,
): Promise<number> {
  let q = db
    .selectFrom('quota_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('count'), eb.lit(0)).as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', after);
  if (until !== undefined) q = q.where('created_at', '<=', until);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function topRecipient(
  db: Kysely<Database>,
  userId: string,
  since: string,
): Promise<{ address: string; count: number } | null> {
  const row = await db
    .selectFrom('emails')
    .innerJoin('email_recipients', 'email_recipients.email_id', 'emails.id')
    .select((eb) => [
      'email_recipients.address as address',
      eb.fn.countAll<number | string | bigint>().as('n'),
    ])
    .where('emails.user_id', '=', userId)
    .where('emails.created_at', '>', since)
    .where('emails.status', '<>', 'cancelled')
    .where('emails.mode', '=', 'live')
    .where(notSimulator)
    .groupBy('email_recipients.address')
    .orderBy('n', 'desc')
    .orderBy('email_recipients.address')
    .limit(1)
    .executeTakeFirst();
  return row ? { address: row.address, count: Number(row.n) } : null;
}

/**
 * Counts behind the signals at `now`. `notBefore` (an operator's reinstatement)
 * starts the 24 h and 1 h windows no earlier than it; the 7-day baseline is history
 * and keeps its whole window. Every query is bounded by the account's quota over
 * its window and walks an index (emails_user_created_status, quota_ledger_user_count).
 */
export async function signalInputs(
  db: Kysely<Database>,
  userId: string,
  options: { readonly now: Date; readonly notBefore?: string | null | undefined },
): Promise<SignalInputs> {
  const now = options.now.getTime();
  const clamp = (ms: number): string => {
    const start = iso(ms);
    return options.notBefore && options.notBefore > start ? options.notBefore : start;
  };
  const hourAgo = now - HOUR_MS;
  const baselineStart = hourAgo - THRESHOLDS.volumeSpike.baselineHours * HOUR_MS;
  const [outcomes, lastHour, baseline, top] = await Promise.all([
    recipientOutcomes(db, userId, clamp(now - DAY_MS)),
    ledgerSum(db, userId, clamp(hourAgo)),
    ledgerSum(db, userId, iso(baselineStart), iso(hourAgo)),
    topRecipient(db, userId, clamp(hourAgo)),
  ]);
  const count = (s: EmailStatus): number => outcomes.get(s) ?? 0;
  return {
    attempted: PAST_HAND_OFF.reduce((n, s) => n + count(s), 0),
    bounced: count('bounced'),
    complained: count('complained'),
    failed: count('failed'),
    lastHour,
    baseline,
    topRecipient: top,
  };
}

export type AbuseStateRow = Selectable<AbuseStateTable>;

export async function findAbuseState(
  db: Kysely<Database>,
  userId: string,
): Promise<AbuseStateRow | undefined> {
  return db.selectFrom('abuse_state').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function saveAbuseState(db: Kysely<Database>, row: AbuseStateRow): Promise<void> {
  await db
    .insertInto('abuse_state')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        firing: row.firing,
        signals: row.signals,
        evaluated_at: row.evaluated_at,
        detected_at: row.detected_at,
      }),
    )
    .execute();
}

/** When an operator last reinstated the account (from the audit log), if ever. */
export async function lastReinstatedAt(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .where('user_id', '=', userId)
    .where('action', '=', 'user.reinstated')
    .executeTakeFirst();
  return row?.at ?? null;
}

/** Active accounts with messages created after `since`: the ones a sweep evaluates. */
export async function accountsWithMailSince(db: Kysely<Database>, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.status', '=', 'ACTIVE')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('emails')
          .select('emails.id')
          .whereRef('emails.user_id', '=', 'users.id')
          .where('emails.created_at', '>', since),
      ),
    )
    .orderBy('users.id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Deletes finished jobs of `queue` that were due before `before`. Evaluations run up
 * to once a minute per account, and their rows (kept for their dedupe keys) would
 * otherwise grow the job table without bound. Walks jobs_claim (queue, state, run_at).
 */
export async function pruneFinishedJobs(
  db: Kysely<Database>,
  queue: string,
  before: string,
): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('queue', '=', queue)
    .where('state', 'in', ['succeeded', 'failed'])
    .where('run_at', '<', before)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
