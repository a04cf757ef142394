import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { migrate, openDb } from '../../../src/db/connect';
import { WriteBatcher } from '../../../src/db/write-batcher';

async function freshDb() {
  const db = openDb({ file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-wb-')), 'mail.db') });
  await migrate(db);
  return db;
}

const user = (i: number) => ({
  id: `usr_${String(i).padStart(26, '0')}`,
  email: `u${i}@example.com`,
  name: `u${i}`,
  password_hash: 'x',
  status: 'ACTIVE' as const,
  suspended_at: null,
  suspension_reason: null,
  emails_per_hour: null,
  emails_per_day: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('WriteBatcher (group commit)', () => {
  it('commits concurrent units together; a failing unit is rolled back alone', async () => {
    const db = await freshDb();
    const writes = new WriteBatcher(db);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        writes.run(async (trx) => {
          await trx.insertInto('users').values(user(i)).execute();
          if (i === 7) throw new Error('unit 7 fails after writing');
          return i;
        }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 39);
    const failed = results[7];
    assert.equal(failed?.status, 'rejected');
    assert.match(String(failed.reason), /unit 7 fails/);
    const ids = (await db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);
    assert.equal(ids.length, 39);
    assert.ok(!ids.includes(user(7).id));
    await db.destroy();
  });

  it('each unit sees the writes of the units before it in the same batch', async () => {
    const db = await freshDb();
    const writes = new WriteBatcher(db);
    const counts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        writes.run(async (trx) => {
          await trx
            .insertInto('users')
            .values(user(100 + i))
            .execute();
          const row = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst();
          return Number(row?.n);
        }),
      ),
    );
    assert.deepEqual(counts, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await db.destroy();
  });

  it('savepointsOnFailure: the same outcome, the batch run again with savepoints when a unit throws', async () => {
    const db = await freshDb();
    const writes = new WriteBatcher(db, { savepointsOnFailure: true });
    const runs = new Map<number, number>();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        writes.run(async (trx) => {
          runs.set(i, (runs.get(i) ?? 0) + 1);
          await trx
            .insertInto('users')
            .values(user(200 + i))
            .execute();
          if (i === 3) throw new Error('unit 3 fails after writing');
          return i;
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected')),
      Array.from({ length: 20 }, (_, i) => (i === 3 ? 'rejected' : i)),
    );
    const ids = (await db.selectFrom('users').select('id').execute()).map((r) => r.id);
    assert.equal(ids.length, 19);
    assert.ok(!ids.includes(user(203).id));
    // The batch holding unit 3 ran twice (without savepoints, then with them).
    assert.equal(runs.get(3), 2);
    await db.destroy();
  });

  it('a lone unit runs without a savepoint: its failure leaves nothing written', async () => {
    const db = await freshDb();
    const writes = new WriteBatcher(db);
    await assert.rejects(
      writes.run(async (trx) => {
        await trx.insertInto('users').values(user(300)).execute();
        throw new Error('fails after writing');
      }),
      /fails after writing/,
    );
    assert.equal(
      await writes.run(async (trx) => (await trx.insertInto('users').values(user(301)).execute()).length),
      1,
    );
    const ids = (await db.selectFrom('users').select('id').execute()).map((r) => r.id);
    assert.deepEqual(ids, [user(301).id]);
    await db.destroy();
  });

  it('acknowledges nothing when the commit itself fails', async () => {
    const db = await freshDb();
    const writes = new WriteBatcher(db);
    await db.destroy();
    await assert.rejects(writes.run(async (trx) => trx.insertInto('users').values(user(1)).execute()));
  });

  it('runs the units of a batch with a lock key in key order, after the others, arrival order among equals', async () => {
    const db = await freshDb();
    const writes = new WriteBatcher(db);
    const ran: string[] = [];
    const unit = (name: string, key?: string) =>
      writes.run(() => {
        ran.push(name);
        return Promise.resolve(name);
      }, key);
    // One turn of the event loop: one batch.
    const results = await Promise.all([
      unit('c1', 'usr_c'),
      unit('a1', 'usr_a'),
      unit('none1'),
      unit('c2', 'usr_c'),
      unit('b1', 'usr_b'),
      unit('none2'),
      unit('a2', 'usr_a'),
    ]);
    assert.deepEqual(results, ['c1', 'a1', 'none1', 'c2', 'b1', 'none2', 'a2']);
    assert.deepEqual(ran, ['none1', 'none2', 'a1', 'a2', 'b1', 'c1', 'c2']);
    await db.destroy();
  });
});
