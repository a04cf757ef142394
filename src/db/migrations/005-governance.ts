import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Account governance (issue 8): statistics, abuse evaluation state, branding.
 *
 * Statistics read `email_daily_counts`, one row per (account, UTC day of creation,
 * current status), kept exact by triggers on `emails`. A GROUP BY over the emails
 * themselves grows with the messages even on a covering index (the scan and the
 * temporary B-tree; bench/RESULTS.md, scale); the counts table makes the overview
 * O(days × statuses). Triggers, not application code, keep it in step:
 * a status changes in several modules (send, outcomes, cancel, suspension) and a
 * missed path would skew the counts silently. Triggers have no portable DDL: on
 * PostgreSQL the same three are plpgsql trigger functions (issue 23).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // (user_id, created_at) becomes (user_id, created_at, status): a prefix of the new one, so
  // every range query keeps its index, and the status-by-window reads are covered.
  await db.schema.dropIndex('emails_user_created').execute();
  await db.schema
    .createIndex('emails_user_created_status')
    .on('emails')
    .columns(['user_id', 'created_at', 'status'])
    .execute();
  // Quota sums (every send, the stats' usage, the volume-spike baseline over 7 days) read
  // sum(count) by (user_id, created_at): carrying `count` in the index spares a row lookup
  // per ledger entry, which dominates a busy account's 7-day sum at a million rows
  // (bench/RESULTS.md, scale).
  await db.schema.dropIndex('quota_ledger_user').execute();
  await db.schema
    .createIndex('quota_ledger_user_count')
    .on('quota_ledger')
    .columns(['user_id', 'created_at', 'count'])
    .execute();
  // mail_emails_last_hour{status}: messages created in the last hour, all accounts, covered.
  await db.schema
    .createIndex('emails_created_status')
    .on('emails')
    .columns(['created_at', 'status'])
    .execute();

  await db.schema
    .createTable('email_daily_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_daily_counts_pk', ['user_id', 'day', 'status'])
    .execute();
  await sql`
    insert into email_daily_counts (user_id, day, status, count)
    select user_id, substr(created_at, 1, 10), status, count(*) from emails
    group by user_id, substr(created_at, 1, 10), status
  `.execute(db);
  // created_at is an RFC 3339 UTC string (shared/clock), so its first ten characters are the UTC day.
  if (dialectOf(db) === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);

  // The last abuse evaluation per account: which signals fired, so a signal that keeps
  // firing is recorded once (and again a day later), not on every evaluation.
  await db.schema
    .createTable('abuse_state')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('firing', 'text', (c) => c.notNull())
    .addColumn('signals', 'text', (c) => c.notNull())
    .addColumn('evaluated_at', 'text', (c) => c.notNull())
    .addColumn('detected_at', 'text')
    .execute();

  await db.schema
    .createTable('account_branding')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('logo', 'blob')
    .addColumn('logo_content_type', 'text')
    .addColumn('logo_size', 'integer')
    .addColumn('logo_sha256', 'text')
    .addColumn('logo_updated_at', 'text')
    .addColumn('footer_html', 'text')
    .addColumn('footer_text', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_branding').execute();
  await db.schema.dropTable('abuse_state').execute();
  for (const t of ['email_daily_counts_insert', 'email_daily_counts_update', 'email_daily_counts_delete']) {
    if (dialectOf(db) === 'postgres') {
      await sql`drop trigger ${sql.id(t)} on emails`.execute(db);
      await sql`drop function ${sql.id(t)}()`.execute(db);
    } else {
      await sql`drop trigger ${sql.id(t)}`.execute(db);
    }
  }
  await db.schema.dropTable('email_daily_counts').execute();
  await db.schema.dropIndex('emails_created_status').execute();
  await db.schema.dropIndex('emails_user_created_status').execute();
  await db.schema.dropIndex('quota_ledger_user_count').execute();
  await db.schema
    .createIndex('quota_ledger_user')
    .on('quota_ledger')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('emails_user_created')
    .on('emails')
    .columns(['user_id', 'created_at'])
    .execute();
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger email_daily_counts_insert after insert on emails
    begin
      insert into email_daily_counts (user_id, day, status, count)
      values (new.user_id, substr(new.created_at, 1, 10), new.status, 1)
      on conflict (user_id, day, status) do update set count = count + 1;
    end
  `.execute(db);
  await sql`
    create trigger email_daily_counts_update after update of status, user_id, created_at on emails
    when old.status is not new.status or old.user_id is not new.user_id or old.created_at is not new.created_at
    begin
      update email_daily_counts set count = count - 1
      where user_id = old.user_id and day = substr(old.created_at, 1, 10) and status = old.status;
      insert into email_daily_counts (user_id, day, status, count)
      values (new.user_id, substr(new.created_at, 1, 10), new.status, 1)
      on conflict (user_id, day, status) do update set count = count + 1;
    end
  `.execute(db);
  await sql`
    create trigger email_daily_counts_delete after delete on emails
    begin
      update email_daily_counts set count = count - 1
      where user_id = old.user_id and day = substr(old.created_at, 1, 10) and status = old.status;
    end
  `.execute(db);
}

/** The same three as plpgsql trigger functions (PostgreSQL triggers call a function). */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function email_daily_counts_insert() returns trigger language plpgsql as $$
    begin
      insert into email_daily_counts (user_id, day, status, count)
      values (new.user_id, substr(new.created_at, 1, 10), new.status, 1)
      on conflict (user_id, day, status) do update set count = email_daily_counts.count + 1;
      return null;
    end $$
  `.execute(db);
  await sql`
    create function email_daily_counts_update() returns trigger language plpgsql as $$
    begin
      update email_daily_counts set count = count - 1
      where user_id = old.user_id and day = substr(old.created_at, 1, 10) and status = old.status;
      insert into email_daily_counts (user_id, day, status, count)
      values (new.user_id, substr(new.created_at, 1, 10), new.status, 1)
      on conflict (user_id, day, status) do update set count = email_daily_counts.count + 1;
      return null;
    end $$
  `.execute(db);
  await sql`
    create function email_daily_counts_delete() returns trigger language plpgsql as $$
    begin
      update email_daily_counts set count = count - 1
      where user_id = old.user_id and day = substr(old.created_at, 1, 10) and status = old.status;
      return null;
    end $$
  `.execute(db);
  await sql`
    create trigger email_daily_counts_insert after insert on emails
    for each row execute function email_daily_counts_insert()
  `.execute(db);
  await sql`
    create trigger email_daily_counts_update after update of status, user_id, created_at on emails
    for each row
    when (old.status is distinct from new.status or old.user_id is distinct from new.user_id
      or old.created_at is distinct from new.created_at)
    execute function email_daily_counts_update()
  `.execute(db);
  await sql`
    create trigger email_daily_counts_delete after delete on emails
    for each row execute function email_daily_counts_delete()
  `.execute(db);
}
