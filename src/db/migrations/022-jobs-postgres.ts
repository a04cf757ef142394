import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * PostgreSQL only (issue 23 item 2): a job that is queued and due now wakes idle
 * workers on every node through NOTIFY instead of waiting out their poll. A trigger,
 * not a statement in enqueue, so every write that makes a job due (enqueue, the send
 * commit's insert, a reschedule to now) notifies without another round trip, inside
 * its own transaction: PostgreSQL delivers the notification on commit and never for a
 * rollback, and folds identical ones of one transaction into one. A job due later
 * (a scheduled send, a retry's backoff) notifies nobody: the poll finds it.
 * SQLite has no NOTIFY; there the supervisor relays the api's work signal (work-signal.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // The claim's due branch (jobs/claim-postgres.ts) walks this in run_at order across
  // all its queues and stops at its limit. SQLite claims per queue over jobs_claim.
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
  await sql`
    create function mailroom_jobs_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('mailroom_jobs', new.queue);
      return null;
    end
    $$`.execute(db);
  // run_at is RFC 3339 text in UTC with milliseconds, as toISOString() writes it. The
  // wall clock, not now(): now() is the transaction's start, and a group commit's
  // transaction starts before the jobs it inserts become due. A second of slack for
  // nodes whose clocks run a little ahead of the server's.
  await sql`
    create trigger jobs_notify after insert or update of state, run_at on jobs
    for each row
    when (new.state = 'queued'
      and new.run_at <= to_char((clock_timestamp() + interval '1 second') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    execute function mailroom_jobs_notify()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger jobs_notify on jobs`.execute(db);
  await sql`drop function mailroom_jobs_notify()`.execute(db);
  await db.schema.dropIndex('jobs_due').execute();
}
