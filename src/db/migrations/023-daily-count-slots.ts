import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Counter rows per (account, day, status) on PostgreSQL at most: one per slot, and a
 * connection claims a slot of its own for its lifetime (mailroom_counter_slot()).
 */
export const DAILY_COUNT_SLOTS = 64;

/** The two-int advisory-lock namespace of the slots ('mrcs'); serialise()'s one-bigint keys are another space. */
const SLOT_LOCK_SPACE = 0x6d726373;

/**
 * `email_daily_counts` (migration 005) without a shared hot row on PostgreSQL.
 *
 * Every send and every status change of an account's mail updates its (account, day,
 * status) counters. On SQLite one writer at a time makes that free. On PostgreSQL the
 * api's, the worker's and the mta's group commits (and other nodes') run side by side,
 * each locking the counters of several accounts in the order its units arrived: they
 * queued behind each other and deadlocked (measured: one node, 8 accounts, 1,500
 * sends → 70 deadlocks, a second's stall each, sends accepted 4× slower than with one
 * account). So on PostgreSQL each counter is split into slots, one per writing
 * connection: the first time a connection counts, it claims the lowest free slot with
 * a session advisory lock (held until it disconnects, so a new connection reuses a
 * closed one's slot and the rows per counter stay at most the connections that were
 * open at once; past 64 at once, connections share by pid). Two connections' writes
 * then never lock the same row, and a decrement is an upsert of -1 into the writer's
 * own slot (a slot may go negative; the sum per (account, day, status) is the count).
 * Readers sum the slots (stats.repository.ts). SQLite gets the column too, so both
 * schemas match (`ctl migrate-to-postgres` copies its rows as slot 0); its triggers
 * and primary key are unchanged and never write another slot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('email_daily_counts')
    .addColumn('slot', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table email_daily_counts drop constraint email_daily_counts_pk`.execute(db);
  await sql`alter table email_daily_counts add constraint email_daily_counts_pk
    primary key (user_id, day, status, slot)`.execute(db);
  // The setting is a cache: a rolled-back transaction undoes it, and the next call finds
  // the lock it already holds (session advisory locks are re-entrant) and the same slot.
  await sql`
    create function mailroom_counter_slot() returns integer language plpgsql as $$
    declare
      cached text := current_setting('mailroom.counter_slot', true);
    begin
      if cached is not null and cached <> '' then
        return cached::integer;
      end if;
      for i in 0 .. ${sql.raw(String(DAILY_COUNT_SLOTS - 1))} loop
        if pg_try_advisory_lock(${sql.raw(String(SLOT_LOCK_SPACE))}, i) then
          perform set_config('mailroom.counter_slot', i::text, false);
          return i;
        end if;
      end loop;
      return pg_backend_pid() % ${sql.raw(String(DAILY_COUNT_SLOTS))};
    end $$`.execute(db);
  const add = (ref: 'new' | 'old', delta: 1 | -1) => {
    const r = sql.raw(ref);
    const d = sql.raw(String(delta));
    return sql`
      insert into email_daily_counts (user_id, day, status, slot, count)
      values (${r}.user_id, substr(${r}.created_at, 1, 10), ${r}.status, mailroom_counter_slot(), ${d})
      on conflict (user_id, day, status, slot) do update set count = email_daily_counts.count + ${d};`;
  };
  // create or replace keeps the triggers of 005/011 (and their WHEN conditions) bound to them.
  await replaceTriggerFunction(db, 'email_daily_counts_insert', add('new', 1));
  await replaceTriggerFunction(db, 'email_daily_counts_update', sql`${add('old', -1)} ${add('new', 1)}`);
  await replaceTriggerFunction(db, 'email_daily_counts_delete', add('old', -1));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    // The slots folded back into one row each, then 005's functions and key.
    await sql`
      with folded as (delete from email_daily_counts returning user_id, day, status, count)
      insert into email_daily_counts (user_id, day, status, slot, count)
      select user_id, day, status, 0, sum(count) from folded group by user_id, day, status`.execute(db);
    await sql`alter table email_daily_counts drop constraint email_daily_counts_pk`.execute(db);
    await sql`alter table email_daily_counts add constraint email_daily_counts_pk
      primary key (user_id, day, status)`.execute(db);
    await sql`drop function mailroom_counter_slot()`.execute(db);
    // 005's functions, as 005 wrote them.
    const decrement = sql`
        update email_daily_counts set count = count - 1
        where user_id = old.user_id and day = substr(old.created_at, 1, 10) and status = old.status;`;
    const increment = sql`
        insert into email_daily_counts (user_id, day, status, count)
        values (new.user_id, substr(new.created_at, 1, 10), new.status, 1)
        on conflict (user_id, day, status) do update set count = email_daily_counts.count + 1;`;
    await replaceTriggerFunction(db, 'email_daily_counts_insert', increment);
    await replaceTriggerFunction(db, 'email_daily_counts_update', sql`${decrement} ${increment}`);
    await replaceTriggerFunction(db, 'email_daily_counts_delete', decrement);
  }
  await db.schema.alterTable('email_daily_counts').dropColumn('slot').execute();
}

/** A plpgsql row-trigger function `name` running `body` (statements, each ending in `;`). */
async function replaceTriggerFunction(
  db: Kysely<unknown>,
  name: string,
  body: RawBuilder<unknown>,
): Promise<void> {
  await sql`
    create or replace function ${sql.raw(name)}() returns trigger language plpgsql as $$
    begin
      ${body}
      return null;
    end $$`.execute(db);
}
