import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { dialectOf } from '../../src/db/dialect';
import { insertUser } from '../../src/modules/accounts/accounts.repository';
import { newId } from '../../src/shared/ids';
import { requirePostgres } from './postgres';
import { psqlExec } from './postgres-server';
import type { TestDb } from './test-db';
import { createTestDb, processDatabase } from './test-db';

async function addUser(db: TestDb['db']): Promise<string> {
  const id = newId('usr');
  await insertUser(db, { id, email: `${id}@example.com`, name: 'x', passwordHash: 'x' });
  return id;
}

async function userCount(db: TestDb['db']): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

void describe('createTestDb on SQLite', () => {
  it('is a migrated SQLite file in its own DATA_DIR, and says so', async () => {
    const t = await createTestDb({ backend: 'sqlite' });
    try {
      assert.equal(dialectOf(t.db), 'sqlite');
      assert.equal(t.url, `sqlite:${t.file}`);
      assert.ok(t.file.startsWith(t.dataDir) && fs.existsSync(t.file));
      await addUser(t.db);
      assert.equal(await userCount(t.open()), 1, 'a second connection sees the write');
    } finally {
      await t.close();
    }
    assert.equal(fs.existsSync(t.dataDir), false);
  });

  it('processDatabase adds nothing to a process environment (DATA_DIR/mail.db is the default)', async () => {
    const dir = fs.mkdtempSync('/tmp/mailroom-procdb-');
    const p = await processDatabase(dir, { backend: 'sqlite', migrated: true });
    assert.deepEqual(p.env, {});
    assert.ok(fs.existsSync(`${dir}/mail.db`));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

void describe('createTestDb on PostgreSQL', requirePostgres(), () => {
  it('is a fresh migrated PostgreSQL database per call; close() drops it', async () => {
    const a = await createTestDb({ backend: 'postgres' });
    const b = await createTestDb({ backend: 'postgres' });
    try {
      assert.equal(dialectOf(a.db), 'postgres');
      assert.match(a.url, /^postgres:\/\//);
      assert.notEqual(a.url, b.url);
      await addUser(a.db);
      assert.equal(await userCount(a.open()), 1, 'a second pool sees the write');
      assert.equal(await userCount(b.db), 0, 'the other database does not');
    } finally {
      await b.close();
    }
    const name = new URL(b.url).pathname.slice(1);
    const admin = new URL(b.url);
    admin.pathname = '/postgres';
    assert.equal(
      await psqlExec(admin.toString(), `select count(*) from pg_database where datname = '${name}'`),
      '0',
    );
    await a.close();
  });

  it('processDatabase gives a process DATABASE_URL of a fresh database, migrated on request', async () => {
    const dir = fs.mkdtempSync('/tmp/mailroom-procdb-');
    const empty = await processDatabase(dir, { backend: 'postgres' });
    const migrated = await processDatabase(dir, { backend: 'postgres', migrated: true });
    assert.equal(empty.env.DATABASE_URL, empty.url);
    assert.notEqual(empty.url, migrated.url);
    const tables = (url: string) =>
      psqlExec(url, "select count(*) from pg_tables where schemaname = 'public' and tablename = 'users'");
    assert.equal(await tables(empty.url), '0');
    assert.equal(await tables(migrated.url), '1');
    assert.equal(fs.readdirSync(dir).length, 0, 'no SQLite file in DATA_DIR');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
