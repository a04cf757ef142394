import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../../src/db/connect';
import { databaseKind, dialectOf, migrate, openDatabase } from '../../../src/db/connect';
import { migrations } from '../../../src/db/migrations';
import { PreparedQuery } from '../../../src/db/precompiled';
import { dropTestDatabase, requirePostgres, testPostgresUrl } from '../../helpers/postgres';

// Issue 23 item 1: DATABASE_URL chooses the engine; the one set of migrations builds
// the same schema on both; values come back as they do from SQLite (numbers, Buffers,
// byte-wise text order); a PreparedQuery serves both engines in one process.

const NOW = '2026-01-01T00:00:00.000Z';

function user(id: string, email: string) {
  return {
    id,
    email,
    name: id,
    password_hash: 'x',
    status: 'ACTIVE' as const,
    created_at: NOW,
    updated_at: NOW,
  };
}

describe('databaseKind', () => {
  it('is postgres for postgres:// and postgresql:// and sqlite for anything else', () => {
    assert.equal(databaseKind('postgres://u:p@db:5432/mail'), 'postgres');
    assert.equal(databaseKind('postgresql://db/mail?sslmode=require'), 'postgres');
    assert.equal(databaseKind('POSTGRES://db/mail'), 'postgres');
    assert.equal(databaseKind('sqlite:/var/lib/mailroom/mail.db'), 'sqlite');
    assert.equal(databaseKind('file:///tmp/x.db'), 'sqlite');
    assert.equal(databaseKind('/data/postgres/mail.db'), 'sqlite');
  });
});

describe('PostgreSQL backend', requirePostgres(), () => {
  let url: string;
  let pgDb: Db;
  let sqliteDir: string;
  let sqliteDb: Db;

  before(async () => {
    url = await testPostgresUrl();
    pgDb = openDatabase(url, { poolSize: 4 });
    sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-pgconnect-'));
    sqliteDb = openDatabase(`sqlite:${path.join(sqliteDir, 'mail.db')}`);
    await migrate(sqliteDb);
  });
  after(async () => {
    await pgDb.destroy();
    await sqliteDb.destroy();
    fs.rmSync(sqliteDir, { recursive: true, force: true });
    await dropTestDatabase(url);
  });

  it('opens the engine the URL names', () => {
    assert.equal(dialectOf(pgDb), 'postgres');
    assert.equal(dialectOf(sqliteDb), 'sqlite');
  });

  it('applies every migration once when two processes start together', async () => {
    // Two pools stand for two nodes booting at once: kysely's PostgresAdapter serialises the
    // runs on an advisory lock, so the second finds nothing left to apply.
    const other = openDatabase(url, { poolSize: 2 });
    try {
      const [a, b] = await Promise.all([migrate(pgDb), migrate(other)]);
      assert.deepEqual([...a, ...b].sort(), Object.keys(migrations).sort());
      const rows = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(pgDb);
      assert.equal(rows.rows[0]?.n, Object.keys(migrations).length);
      assert.deepEqual(await migrate(other), []);
    } finally {
      await other.destroy();
    }
  });

  it('round-trips a row through kysely, integers as numbers and blobs as Buffers', async () => {
    await pgDb.insertInto('users').values(user('usr_pg1', 'pg1@example.com')).execute();
    const row = await pgDb
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'usr_pg1')
      .executeTakeFirstOrThrow();
    assert.equal(row.email, 'pg1@example.com');
    // int8 (a bigint column, count(*)) and numeric (sum over bigint) arrive as numbers, as from SQLite.
    assert.equal(row.session_epoch, 0);
    const agg = await sql<{ n: unknown; total: unknown }>`
      select count(*) as n, sum(session_epoch) as total from users
    `.execute(pgDb);
    assert.deepEqual(agg.rows[0], { n: 1, total: 0 });
    const logo = Buffer.from([0, 1, 2, 255]);
    await pgDb
      .insertInto('account_branding')
      .values({ user_id: 'usr_pg1', logo, logo_size: 4, updated_at: NOW })
      .execute();
    const branding = await pgDb
      .selectFrom('account_branding')
      .select(['logo', 'logo_size'])
      .executeTakeFirstOrThrow();
    assert.ok(Buffer.isBuffer(branding.logo));
    assert.deepEqual(branding.logo, logo);
    assert.equal(branding.logo_size, 4);
  });

  it('refuses an int8 beyond 2^53 rather than rounding it', async () => {
    await assert.rejects(sql`select 9007199254740993::int8 as big`.execute(pgDb), /beyond 2\^53/);
  });

  it('keeps the stats triggers (plpgsql) counting as on SQLite', async () => {
    for (const db of [sqliteDb, pgDb]) {
      await db.insertInto('users').values(user('usr_t', 't@example.com')).execute();
      await db
        .insertInto('domains')
        .values({
          id: 'dom_t',
          user_id: 'usr_t',
          domain: 't.example',
          status: 'VERIFIED',
          dkim_selector: 's',
          dkim_public_key: 'p',
          dkim_private_key_encrypted: 'k',
          receive_enabled: 0,
          inbound_label: 'inbox',
          addresses: '[]',
          restrict_senders: 0,
          unsubscribe_link: 0,
          verified_at: null,
          last_checked_at: null,
          next_check_at: null,
          lookup_failures: 0,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      const email = (id: string, mode: 'live' | 'test') => ({
        id,
        user_id: 'usr_t',
        domain_id: 'dom_t',
        from_address: 'a@t.example',
        from_header: 'a@t.example',
        subject: 's',
        source: 'api' as const,
        message_id: `<${id}@t>`,
        size_bytes: 10,
        status: 'queued' as const,
        created_at: NOW,
        updated_at: NOW,
        mode,
      });
      await db
        .insertInto('emails')
        .values([email('em_1', 'live'), email('em_2', 'live'), email('em_3', 'test')])
        .execute();
      await db.updateTable('emails').set({ status: 'delivered' }).where('id', '=', 'em_1').execute();
      await db.deleteFrom('emails').where('id', '=', 'em_2').execute();
      // Summed over slots: on PostgreSQL each writing connection keeps its own share (migration 023).
      const counts = (
        await db
          .selectFrom('email_daily_counts')
          .select(['status', (eb) => eb.fn.sum<number | string>('count').as('count')])
          .where('user_id', '=', 'usr_t')
          .groupBy('status')
          .orderBy('status')
          .execute()
      ).map((r) => ({ status: r.status, count: Number(r.count) }));
      assert.deepEqual(
        counts,
        [
          { status: 'delivered', count: 1 },
          { status: 'queued', count: 0 },
        ],
        dialectOf(db),
      );
    }
  });

  it('compiles a PreparedQuery once per engine, both used in one process', async () => {
    const byEmail = new PreparedQuery<{ email: string }, { id: string }>((kdb, s) =>
      kdb.selectFrom('users').select('id').where('email', '=', s.param('email')),
    );
    await sqliteDb.insertInto('users').values(user('usr_lite', 'lite@example.com')).execute();
    await pgDb.insertInto('users').values(user('usr_pg2', 'pg2@example.com')).execute();
    assert.deepEqual(await byEmail.rows(sqliteDb, { email: 'lite@example.com' }), [{ id: 'usr_lite' }]);
    assert.deepEqual(await byEmail.rows(pgDb, { email: 'pg2@example.com' }), [{ id: 'usr_pg2' }]);
    assert.deepEqual(await byEmail.rows(sqliteDb, { email: 'pg2@example.com' }), []);
    assert.match(byEmail.bind(pgDb, { email: 'x' }).sql, /\$1/);
    assert.match(byEmail.bind(sqliteDb, { email: 'x' }).sql, /\?/);
    // Inside a transaction too: the engine is the transaction's.
    await pgDb.transaction().execute(async (trx) => {
      assert.deepEqual(await byEmail.rows(trx, { email: 'pg2@example.com' }), [{ id: 'usr_pg2' }]);
    });
  });
});
