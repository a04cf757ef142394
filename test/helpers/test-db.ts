import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/connect';
import { migrate } from '../../src/db/connect';
import type { TestBackend } from './open-database';
import { openTestDatabase, sqliteUrlOf } from './open-database';
import { dropTestDatabase, testBackend, testPostgresUrl } from './postgres';

export interface TestDb {
  readonly backend: TestBackend;
  readonly db: Db;
  /** DATABASE_URL of this database (`sqlite:<file>` or `postgres://…`), for config and child processes. */
  readonly url: string;
  /** A fresh DATA_DIR of its own (on SQLite the database file lives in it). */
  readonly dataDir: string;
  /** Another connection (pool) to the same database, as a second process would have. */
  open(): Db;
  close(): Promise<void>;
}

/** A test database pinned to SQLite, for tests about SQLite itself: it also names the file. */
export interface SqliteTestDb extends TestDb {
  readonly backend: 'sqlite';
  readonly file: string;
}

export interface TestDbOptions {
  /** Default: the matrix's backend (MAILROOM_TEST_BACKEND). Pin 'sqlite' only with a reason. */
  readonly backend?: TestBackend;
}

/**
 * A real database built by the real migrations: a SQLite file in a fresh temp dir, or, when the
 * run's backend is PostgreSQL, a fresh database on the test server (test/helpers/postgres.ts).
 */
export async function createTestDb(options: { readonly backend: 'sqlite' }): Promise<SqliteTestDb>;
export async function createTestDb(options?: TestDbOptions): Promise<TestDb>;
export async function createTestDb(options: TestDbOptions = {}): Promise<TestDb> {
  const backend = options.backend ?? testBackend();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-jobs-'));
  const url = backend === 'postgres' ? await testPostgresUrl() : sqliteUrlOf(dataDir);
  const db = openTestDatabase(url);
  await migrate(db);
  const extra: Db[] = [];
  return {
    backend,
    db,
    url,
    dataDir,
    ...(backend === 'sqlite' ? { file: path.join(dataDir, 'mail.db') } : {}),
    open: () => {
      const other = openTestDatabase(url);
      extra.push(other);
      return other;
    },
    close: async () => {
      for (const other of extra) await other.destroy();
      await db.destroy();
      if (backend === 'postgres') await dropTestDatabase(url);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The database a process started with `DATA_DIR=dataDir` uses, on the matrix's backend. */
export interface ProcessDatabase {
  /** Its DATABASE_URL, for openTestDatabase(). */
  readonly url: string;
  /** What to add to the process's environment: DATABASE_URL on PostgreSQL, nothing on SQLite. */
  readonly env: Record<string, string>;
}

/**
 * For tests that start appliance processes themselves: on SQLite DATA_DIR/mail.db (the default,
 * so the environment stays as an operator's), on PostgreSQL a fresh database. `migrated: true`
 * builds the schema first; without it the process under test finds an empty database.
 */
export async function processDatabase(
  dataDir: string,
  options: TestDbOptions & { readonly migrated?: boolean } = {},
): Promise<ProcessDatabase> {
  const backend = options.backend ?? testBackend();
  const url = backend === 'postgres' ? await testPostgresUrl() : sqliteUrlOf(dataDir);
  if (options.migrated === true) {
    const db = openTestDatabase(url);
    try {
      await migrate(db);
    } finally {
      await db.destroy();
    }
  }
  return { url, env: backend === 'postgres' ? { DATABASE_URL: url } : {} };
}
