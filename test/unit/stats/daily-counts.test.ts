import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { dailyCounts } from '../../../src/modules/stats/stats.repository';
import type { Db } from '../../../src/db/connect';
import { requirePostgres } from '../../helpers/postgres';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';
import { insertAccount, insertEmail } from '../../helpers/email-fixtures';

describe('email_daily_counts (kept by triggers on emails)', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(async () => {
    await t.close();
  });

  async function recount(userId: string) {
    const { rows } = await sql<{ day: string; status: string; count: number }>`
      select substr(created_at, 1, 10) as day, status, count(*) as count from emails
      where user_id = ${userId} group by 1, 2 order by 1, 2`.execute(t.db);
    return rows;
  }

  it('follows inserts, status changes and deletes exactly', async () => {
    const account = await insertAccount(t.db);
    const other = await insertAccount(t.db);
    const ids: string[] = [];
    for (const [createdAt, status] of [
      ['2025-01-01T23:59:59.999Z', 'queued'],
      ['2025-01-02T00:00:00.000Z', 'queued'],
      ['2025-01-02T12:00:00.000Z', 'delivered'],
      ['2025-01-02T13:00:00.000Z', 'bounced'],
    ] as const) {
      ids.push(await insertEmail(t.db, account, { createdAt, status }));
    }
    await insertEmail(t.db, other, { createdAt: '2025-01-02T00:00:00.000Z', status: 'queued' });

    await t.db.updateTable('emails').set({ status: 'processing' }).where('id', '=', ids[0]!).execute();
    await t.db.updateTable('emails').set({ status: 'sent' }).where('id', '=', ids[0]!).execute();
    await t.db.updateTable('emails').set({ status: 'sent' }).where('id', '=', ids[0]!).execute(); // no change
    await t.db.updateTable('emails').set({ subject: 'x' }).where('id', '=', ids[1]!).execute(); // not a status
    await t.db.deleteFrom('emails').where('id', '=', ids[3]!).execute();

    const counted = await dailyCounts(t.db, account.userId, '2000-01-01');
    assert.deepEqual(
      counted.map((r) => ({ ...r })),
      await recount(account.userId),
    );
    assert.deepEqual(counted, [
      { day: '2025-01-01', status: 'sent', count: 1 },
      { day: '2025-01-02', status: 'delivered', count: 1 },
      { day: '2025-01-02', status: 'queued', count: 1 },
    ]);
    assert.deepEqual(await dailyCounts(t.db, account.userId, '2025-01-02'), counted.slice(1));
    assert.deepEqual(await dailyCounts(t.db, other.userId, '2000-01-01'), [
      { day: '2025-01-02', status: 'queued', count: 1 },
    ]);
  });
});

describe('email_daily_counts on PostgreSQL: one share per writing connection', requirePostgres(), () => {
  let t: TestDb;
  const pools: Db[] = [];
  before(async () => {
    t = await createTestDb({ backend: 'postgres' });
  });
  after(async () => {
    for (const p of pools) await p.destroy();
    await t.close();
  });

  /** Another connection, as another writer (a process, a node) has; each claims a slot of its own. */
  function writer(): { db: Db } {
    const db = t.open();
    pools.push(db);
    return { db };
  }

  it('a writer does not wait on counters another connection holds uncommitted, and the sums stay exact', async () => {
    const account = await insertAccount(t.db);
    const a = writer();
    const b = writer();
    const day = '2026-11-26';
    const held = await a.db.startTransaction().execute();
    let id: string;
    try {
      await insertEmail(held, account, { createdAt: `${day}T10:00:00.000Z`, status: 'queued' });
      // B counts the same (account, day, status) while A holds its share: with one row per
      // counter it would wait for A's commit (lock_timeout makes that a failure, not a hang).
      id = await b.db.connection().execute(async (conn) => {
        await sql`set lock_timeout = '3s'`.execute(conn);
        try {
          const inserted = await insertEmail(conn, account, {
            createdAt: `${day}T11:00:00.000Z`,
            status: 'queued',
          });
          await conn.updateTable('emails').set({ status: 'sent' }).where('id', '=', inserted).execute();
          return inserted;
        } finally {
          await sql`reset lock_timeout`.execute(conn);
        }
      });
    } catch (err) {
      await held.rollback().execute();
      throw err;
    }
    await held.commit().execute();
    await a.db.updateTable('emails').set({ status: 'delivered' }).where('id', '=', id).execute();
    assert.deepEqual(await dailyCounts(t.db, account.userId, day), [
      { day, status: 'delivered', count: 1 },
      { day, status: 'queued', count: 1 },
    ]);
    const slots = await t.db
      .selectFrom('email_daily_counts')
      .select('slot')
      .distinct()
      .where('user_id', '=', account.userId)
      .execute();
    assert.ok(slots.length >= 2, 'each connection wrote its own share');
    // A slot is a connection's for its lifetime: reconnecting reuses the freed ones.
    const { rows } = await sql<{
      n: number | string;
    }>`select count(distinct slot) as n from email_daily_counts`.execute(t.db);
    assert.ok(Number(rows[0]!.n) <= 4, `slots in use: ${rows[0]!.n}`);
  });
});
