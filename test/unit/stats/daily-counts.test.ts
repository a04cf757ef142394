import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { dailyCounts } from '../../../src/modules/stats/stats.repository';
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
