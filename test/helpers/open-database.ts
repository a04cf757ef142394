import path from 'node:path';
import type { Db } from '../../src/db/connect';
import { databaseKind, openDatabase } from '../../src/db/connect';

export type TestBackend = 'sqlite' | 'postgres';

export function isPostgresUrl(url: string): boolean {
  return databaseKind(url) === 'postgres';
}

/** The SQLite DATABASE_URL of a DATA_DIR, as the appliance derives it when none is set. */
export function sqliteUrlOf(dataDir: string): string {
  return `sqlite:${path.join(path.resolve(dataDir), 'mail.db')}`;
}

/**
 * A Db on the database a DATABASE_URL names, either backend (the caller destroys it). A small
 * pool: tests hold several of these beside appliances on one shared server.
 */
export function openTestDatabase(url: string): Db {
  return openDatabase(url, { poolSize: 4, applicationName: 'mailroom-test' });
}

/**
 * A Db on a running appliance's database, whichever backend it was started on. Tests read the
 * appliance's state through this, never through its SQLite file, so they run on both backends.
 */
export function openApplianceDb(app: { readonly databaseUrl: string }): Db {
  return openTestDatabase(app.databaseUrl);
}
