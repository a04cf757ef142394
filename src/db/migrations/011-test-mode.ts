import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Test-mode API keys and the built-in capture (issue 21 item 1).
 *
 * `emails.mode` is the mode of the key that sent the message (`live` or `test`);
 * `emails.unverified_domain` marks test mail sent from a domain not yet verified
 * (allowed for test keys only, so a trial needs no DNS). `captured_messages` holds
 * the signed message a test send produced instead of leaving the appliance: in the
 * database, not under DATA_DIR, so backups, retention and a later PostgreSQL port
 * (bytea) need nothing more than this table; captured mail is small and short-lived
 * (CAPTURE_RETENTION_DAYS).
 *
 * Statistics read `email_daily_counts` (migration 005): its triggers now count live
 * mail only, so test traffic never shows in `GET /v1/stats/overview`. A message's
 * mode never changes, so each trigger tests it on the row it sees.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('emails')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
    .execute();
  await db.schema
    .alterTable('emails')
    .addColumn('unverified_domain', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('captured_messages')
    .addColumn('email_id', 'text', (c) => c.primaryKey().references('emails.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('raw', 'blob', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('captured_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('captured_messages_captured_at')
    .on('captured_messages')
    .column('captured_at')
    .execute();
  await replaceDailyCountTriggers(db, {
    live: sql`and new.mode = 'live'`,
    liveOld: sql`and old.mode = 'live'`,
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceDailyCountTriggers(db, { live: sql``, liveOld: sql`` });
  await db.schema.dropTable('captured_messages').execute();
  await db.schema.alterTable('emails').dropColumn('unverified_domain').execute();
  await db.schema.alterTable('emails').dropColumn('mode').execute();
}

/** Migration 005's triggers, with an extra condition on the row (empty: as 005 wrote them). */
async function replaceDailyCountTriggers(
  db: Kysely<unknown>,
  cond: { readonly live: RawBuilder<unknown>; readonly liveOld: RawBuilder<unknown> },
): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await replacePostgresTriggers(db, cond);
    return;
  }
  for (const t of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`email_daily_counts_${t}`)}`.execute(db);
  }
  await sql`
    create trigger email_daily_counts_insert after insert on emails
    when 1 = 1 ${cond.live}
    begin
      insert into email_daily_counts (user_id, day, status, count)
      values (new.user_id, substr(new.created_at, 1, 10), new.status, 1)
      on conflict (user_id, day, status) do update set count = count + 1;
    end
  `.execute(db);
  await sql`
    create trigger email_daily_counts_update after update of status, user_id, created_at on emails
    when (old.status is not new.status or old.user_id is not new.user_id or old.created_at is not new.created_at)
      ${cond.live}
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
    when 1 = 1 ${cond.liveOld}
    begin
      update email_daily_counts set count = count - 1
      where user_id = old.user_id and day = substr(old.created_at, 1, 10) and status = old.status;
    end
  `.execute(db);
}

/**
 * PostgreSQL: 005's trigger functions stay as they are; the condition is the
 * triggers' WHEN clause, so the triggers alone are made anew.
 */
async function replacePostgresTriggers(
  db: Kysely<unknown>,
  cond: { readonly live: RawBuilder<unknown>; readonly liveOld: RawBuilder<unknown> },
): Promise<void> {
  for (const t of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`email_daily_counts_${t}`)} on emails`.execute(db);
  }
  await sql`
    create trigger email_daily_counts_insert after insert on emails
    for each row when (1 = 1 ${cond.live})
    execute function email_daily_counts_insert()
  `.execute(db);
  await sql`
    create trigger email_daily_counts_update after update of status, user_id, created_at on emails
    for each row
    when ((old.status is distinct from new.status or old.user_id is distinct from new.user_id
      or old.created_at is distinct from new.created_at) ${cond.live})
    execute function email_daily_counts_update()
  `.execute(db);
  await sql`
    create trigger email_daily_counts_delete after delete on emails
    for each row when (1 = 1 ${cond.liveOld})
    execute function email_daily_counts_delete()
  `.execute(db);
}
