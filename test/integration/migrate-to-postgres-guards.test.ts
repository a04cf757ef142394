// What `ctl migrate-to-postgres` refuses (issue 23 item 5): a table it does not know how to
// copy is named and nothing is copied; an appliance still running on the SQLite file; a
// target that is not PostgreSQL. And what it must not do: run the stats triggers again
// (email_daily_counts copied as rows, not counted twice).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrate, openDatabase, openDb } from '../../src/db/connect';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import { insertAccount, insertEmail } from '../helpers/email-fixtures';
import { requirePostgres, testPostgresUrl } from '../helpers/postgres';

const ENV = { PATH: process.env.PATH ?? '' };

describe('ctl migrate-to-postgres: guards', requirePostgres(), () => {
  let dir: string;
  let file: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-migrate-guard-'));
    file = path.join(dir, 'mail.db');
    const db = openDb({ file });
    await migrate(db);
    const account = await insertAccount(db);
    for (const status of ['delivered', 'delivered', 'bounced'] as const)
      await insertEmail(db, account, { status, createdAt: '2026-11-20T10:00:00.000Z' });
    // Keys whose order differs between byte order and a locale's (case, accents, scripts):
    // the keyset pages and checksums must walk them alike on both sides.
    for (const key of ['B', 'a', 'é', 'z', '日本', 'A b', 'e\u0301'])
      await sql`
        insert into idempotency_keys (user_id, key, request_hash, status_code, response, created_at)
        values (${account.userId}, ${key}, 'h', 202, '{}', '2026-11-20T10:00:00.000Z')`.execute(db);
    await db.destroy();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function pgCount(url: string, table: string): Promise<number> {
    const db = openDatabase(url, { poolSize: 1 });
    try {
      const row = (
        await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db)
      ).rows[0];
      return Number(row?.n);
    } finally {
      await db.destroy();
    }
  }

  it('copies the stats counters as rows: the triggers do not count the emails again', async () => {
    const url = await testPostgresUrl();
    // Two rows a batch: composite keys (user, day, status; user, key) paged across batches.
    const run = await runCtl(ENV, ['migrate-to-postgres', '--from', file, '--to', url, '--batch-size', '2']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^idempotency_keys\s+7\s+7\s.* ok$/m);
    const db = openDatabase(url, { poolSize: 1 });
    try {
      const counts = await sql<{ status: string; count: number | string }>`
        select status, count from email_daily_counts order by status`.execute(db);
      assert.deepEqual(
        counts.rows.map((r) => [r.status, Number(r.count)]),
        [
          ['bounced', 1],
          ['delivered', 2],
        ],
      );
      const hours = await sql<{ count: number | string }>`select count from quota_hour_buckets`.execute(db);
      assert.deepEqual(
        hours.rows.map((r) => Number(r.count)),
        [3, 3],
        'user and domain: 3 messages in the hour, not 6',
      );
    } finally {
      await db.destroy();
    }
  });

  it('names a table it cannot copy (no primary key) and copies nothing', async () => {
    const copy = path.join(dir, 'extra.db');
    fs.copyFileSync(file, copy);
    const db = openDb({ file: copy });
    await sql`create table local_notes (body text)`.execute(db);
    await sql`insert into local_notes values ('kept by hand')`.execute(db);
    await db.destroy();
    const url = await testPostgresUrl();
    const run = await runCtl(ENV, ['migrate-to-postgres', '--from', copy, '--to', url]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /local_notes: no primary key/);
    assert.match(run.stderr, /local_notes: not in the PostgreSQL database/);
    assert.match(run.stderr, /nothing was copied/);
    assert.equal(await pgCount(url, 'users'), 0);
  });

  it('names a table PostgreSQL does not have, even with a primary key', async () => {
    const copy = path.join(dir, 'keyed.db');
    fs.copyFileSync(file, copy);
    const db = openDb({ file: copy });
    await sql`create table later_feature (id text primary key, note text)`.execute(db);
    await db.destroy();
    const url = await testPostgresUrl();
    const run = await runCtl(ENV, ['migrate-to-postgres', '--from', copy, '--to', url]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /later_feature: not in the PostgreSQL database/);
    assert.equal(await pgCount(url, 'emails'), 0);
  });

  it('refuses while an appliance has the SQLite file open', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-migrate-running-'));
    const app = await startAppliance({
      dataDir,
      processes: ['api'],
      env: { DATABASE_URL: `sqlite:${path.join(dataDir, 'mail.db')}` },
    });
    try {
      const run = await runCtl(ENV, [
        'migrate-to-postgres',
        '--from',
        dataDir,
        '--to',
        await testPostgresUrl(),
      ]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /the appliance is running .*stop it first/);
    } finally {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('wants a postgres:// target', async () => {
    const run = await runCtl(ENV, [
      'migrate-to-postgres',
      '--from',
      file,
      '--to',
      path.join(dir, 'other.db'),
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /needs --to postgres:\/\//);
    const none = await runCtl(ENV, [
      'migrate-to-postgres',
      '--from',
      path.join(dir, 'absent.db'),
      '--to',
      'postgres://x@127.0.0.1:1/x',
    ]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no SQLite database at/);
  });
});
