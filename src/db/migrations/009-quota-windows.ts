import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Quota windows that cost the same all day, and a lighter send path (issue 11).
 *
 * The day window used to sum up to 1,440 per-minute buckets per scope on every
 * send. `quota_hour_buckets` holds the same counts per hour, kept equal to the sum
 * of the minute buckets by triggers (as the daily counts are in 005): every
 * writer of `quota_buckets` (the send, the refund of a cancel, fixtures) keeps the
 * hours in step without knowing of them. A check now reads at most 61 minute
 * buckets (the hour window), 60 (the part of the day window's first hour) and 24
 * hours per scope (modules/quota/quota.ts). Triggers have no portable DDL: on
 * PostgreSQL they are plpgsql trigger functions (issue 23).
 *
 * quota_ledger: nothing reads it by domain or by API key (the windows read the
 * buckets; abuse signals read (user_id, created_at, count)), so those two indexes
 * only cost every send an index insert. A cancel's refund reads and deletes the
 * ledger rows of one message, which scanned the table: it gets (email_id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('quota_ledger_domain').execute();
  await db.schema.dropIndex('quota_ledger_key').execute();
  await db.schema.createIndex('quota_ledger_email').on('quota_ledger').column('email_id').execute();

  await db.schema
    .createTable('quota_hour_buckets')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    // `YYYY-MM-DDTHH`: the first 13 characters of the minutes it sums.
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_hour_buckets_pk', ['scope', 'scope_id', 'hour'])
    .execute();
  await sql`
    insert into quota_hour_buckets (scope, scope_id, hour, count)
    select scope, scope_id, substr(minute, 1, 13), sum(count) from quota_buckets
    group by scope, scope_id, substr(minute, 1, 13)
  `.execute(db);
  if (dialectOf(db) === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['quota_hour_buckets_insert', 'quota_hour_buckets_update', 'quota_hour_buckets_delete']) {
    if (dialectOf(db) === 'postgres') {
      await sql`drop trigger ${sql.id(t)} on quota_buckets`.execute(db);
      await sql`drop function ${sql.id(t)}()`.execute(db);
    } else {
      await sql`drop trigger ${sql.id(t)}`.execute(db);
    }
  }
  await db.schema.dropTable('quota_hour_buckets').execute();
  await db.schema.dropIndex('quota_ledger_email').execute();
  await db.schema
    .createIndex('quota_ledger_domain')
    .on('quota_ledger')
    .columns(['domain_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('quota_ledger_key')
    .on('quota_ledger')
    .columns(['api_key_id', 'created_at'])
    .execute();
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger quota_hour_buckets_insert after insert on quota_buckets
    begin
      insert into quota_hour_buckets (scope, scope_id, hour, count)
      values (new.scope, new.scope_id, substr(new.minute, 1, 13), new.count)
      on conflict (scope, scope_id, hour) do update set count = count + excluded.count;
    end
  `.execute(db);
  // A bucket's count is the only column that changes (the send adds, a refund subtracts).
  await sql`
    create trigger quota_hour_buckets_update after update of count on quota_buckets
    when old.count is not new.count
    begin
      update quota_hour_buckets set count = count + new.count - old.count
      where scope = new.scope and scope_id = new.scope_id and hour = substr(new.minute, 1, 13);
    end
  `.execute(db);
  await sql`
    create trigger quota_hour_buckets_delete after delete on quota_buckets
    begin
      update quota_hour_buckets set count = count - old.count
      where scope = old.scope and scope_id = old.scope_id and hour = substr(old.minute, 1, 13);
      -- Retention deletes expired minutes: their hour goes with the last of them.
      delete from quota_hour_buckets
      where scope = old.scope and scope_id = old.scope_id and hour = substr(old.minute, 1, 13)
        and not exists (
          select 1 from quota_buckets
          where scope = old.scope and scope_id = old.scope_id
            and minute >= substr(old.minute, 1, 13) || ':00' and minute <= substr(old.minute, 1, 13) || ':59'
        );
    end
  `.execute(db);
}

/** The same three as plpgsql trigger functions (PostgreSQL triggers call a function). */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function quota_hour_buckets_insert() returns trigger language plpgsql as $$
    begin
      insert into quota_hour_buckets (scope, scope_id, hour, count)
      values (new.scope, new.scope_id, substr(new.minute, 1, 13), new.count)
      on conflict (scope, scope_id, hour) do update set count = quota_hour_buckets.count + excluded.count;
      return null;
    end $$
  `.execute(db);
  await sql`
    create function quota_hour_buckets_update() returns trigger language plpgsql as $$
    begin
      update quota_hour_buckets set count = count + new.count - old.count
      where scope = new.scope and scope_id = new.scope_id and hour = substr(new.minute, 1, 13);
      return null;
    end $$
  `.execute(db);
  await sql`
    create function quota_hour_buckets_delete() returns trigger language plpgsql as $$
    begin
      update quota_hour_buckets set count = count - old.count
      where scope = old.scope and scope_id = old.scope_id and hour = substr(old.minute, 1, 13);
      delete from quota_hour_buckets
      where scope = old.scope and scope_id = old.scope_id and hour = substr(old.minute, 1, 13)
        and not exists (
          select 1 from quota_buckets
          where scope = old.scope and scope_id = old.scope_id
            and minute >= substr(old.minute, 1, 13) || ':00' and minute <= substr(old.minute, 1, 13) || ':59'
        );
      return null;
    end $$
  `.execute(db);
  await sql`
    create trigger quota_hour_buckets_insert after insert on quota_buckets
    for each row execute function quota_hour_buckets_insert()
  `.execute(db);
  await sql`
    create trigger quota_hour_buckets_update after update of count on quota_buckets
    for each row when (old.count is distinct from new.count)
    execute function quota_hour_buckets_update()
  `.execute(db);
  await sql`
    create trigger quota_hour_buckets_delete after delete on quota_buckets
    for each row execute function quota_hour_buckets_delete()
  `.execute(db);
}
