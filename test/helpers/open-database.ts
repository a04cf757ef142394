import path from 'node:path';
import type { Db } from '../../src/db/connect';
import { openDb } from '../../src/db/connect';

export type TestBackend = 'sqlite' | 'postgres';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The SQLite DATABASE_URL of a DATA_DIR, as the appliance derives it when none is set. */
export function sqliteUrlOf(dataDir: string): string {
  return `sqlite:${path.join(path.resolve(dataDir), 'mail.db')}`;
}

/** A Db on the database a DATABASE_URL names, either backend (the caller destroys it). */
export function openTestDatabase(url: string): Db {
  if (isPostgresUrl(url)) {
    throw new Error('open-database: PostgreSQL needs openDatabase() from src/db/connect (s7/pg-core)');
  }
  return openDb({ file: path.resolve(url.replace(/^(sqlite|file):(\/\/)?/i, '')) });
}

/**
 * A Db on a running appliance's database, whichever backend it was started on. Tests read the
 * appliance's state through this, never through its SQLite file, so they run on both backends.
 */
export function openApplianceDb(app: { readonly databaseUrl: string }): Db {
  return openTestDatabase(app.databaseUrl);
}
