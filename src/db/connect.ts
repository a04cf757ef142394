import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { DatabaseConnection, TransactionSettings } from 'kysely';
import type { DialectAdapter } from 'kysely';
import { CompiledQuery, Kysely, SqliteAdapter, SqliteDialect, SqliteDriver } from 'kysely';
import { Migrator } from 'kysely/migration';
import { databaseKind, sqliteFileOf } from '../config/database-url';
import { dialectOf } from './dialect';
import { migrations } from './migrations';
import type * as Postgres from './postgres';
import type { Database } from './schema';

export type { DatabaseKind } from '../config/database-url';
export { databaseKind } from '../config/database-url';
export { dialectOf } from './dialect';

export type Db = Kysely<Database>;

/**
 * SQLite's plain BEGIN takes the write lock lazily; two writers that both read
 * first then deadlock past busy_timeout. BEGIN IMMEDIATE takes it up front, so a
 * write transaction waits its turn instead of failing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    // A read-only transaction (src/db/read-consistently.ts) takes no write lock: WAL gives a plain BEGIN a
    // snapshot from its first read to its end.
    const begin = settings?.accessMode === 'read only' ? 'begin' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

/**
 * SQLite runs DDL inside transactions; saying so makes the migrator wrap each run in
 * one (BEGIN IMMEDIATE), so processes starting together apply a migration once.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly database: BetterSqlite3.Database) {
    super({ database });
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver({ database: this.database });
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

export interface OpenDbOptions {
  readonly file: string;
  readonly readonly?: boolean;
}

export function openSqlite(file: string): BetterSqlite3.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before it returns, so 202 and 250 are promises we keep.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 10000');
  // Statement and savepoint journals (what undoes one statement, or one unit of a group
  // commit) in memory, not in a temporary file: a send's trigger-bearing inserts and
  // savepoints otherwise cost ~30 pwrite() calls each (issue 11). Only rollback within
  // an open transaction reads them; crash recovery is the WAL's, unchanged.
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}

/**
 * kysely's SQLite driver prepares every query anew; preparing costs more than
 * running most of our statements. This hands it a view of the database whose
 * `prepare` reuses statements by SQL text (bounded: the oldest prepared goes first;
 * a hit does not reorder, as the statements in use are far fewer than the bound).
 * Safe because the driver runs a statement to completion (`all`/`run`) before the
 * next one on this single connection.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, max = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string): BetterSqlite3.Statement => {
    const hit = cache.get(source);
    if (hit) return hit;
    const stmt = sqlite.prepare(source);
    cache.set(source, stmt);
    if (cache.size > max) cache.delete(cache.keys().next().value as string);
    return stmt;
  };
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** SQLite only (backup tools, tests of the file itself); everything else opens by URL with openDatabase. */
export function openDb(options: OpenDbOptions): Db {
  return new Kysely<Database>({
    dialect: new ImmediateSqliteDialect(withStatementCache(openSqlite(options.file))),
  });
}

export interface OpenDatabaseOptions {
  /** PostgreSQL: connections in this process's pool (DATABASE_POOL_SIZE). Ignored on SQLite. */
  readonly poolSize?: number | undefined;
  /** PostgreSQL: the process's name in pg_stat_activity. */
  readonly applicationName?: string | undefined;
}

const DEFAULT_POOL_SIZE = 10;

/**
 * Opens the database DATABASE_URL names (issue 23): `postgres://`/`postgresql://`
 * through kysely's PostgresDialect over a pg.Pool, anything else as the SQLite file.
 */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Db {
  if (databaseKind(url) === 'sqlite') return openDb({ file: sqliteFileOf(url) });
  // Required here, not imported: a SQLite appliance never loads pg (idle memory, issue 11).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openPostgres } = require('./postgres') as typeof Postgres;
  return openPostgres(url, {
    poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
    applicationName: options.applicationName,
  });
}

/** Applies pending migrations; throws with the failing migration's error. */
export async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    // PostgreSQL: the migrations' SQLite column types as PostgreSQL says them (postgres.ts).
    db: dialectOf(db) === 'postgres' ? db.withPlugin(portableDdl()) : db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

function portableDdl(): Postgres.PortableDdlPlugin {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PortableDdlPlugin } = require('./postgres') as typeof Postgres;
  return new PortableDdlPlugin();
}
