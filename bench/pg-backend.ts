// The PostgreSQL side of the benchmarks (issue 23, Bench): where its server comes from, how a
// scenario reads an appliance's emails on either backend, and the section a scenario reports
// when there is no PostgreSQL to run on.
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../src/db/connect';
import { postgresAvailable, testPostgresUrl } from '../test/helpers/postgres';
import { sh } from './lib';
import type { Section } from './types';

/**
 * MAILROOM_BENCH_PG_URL: a superuser URL of a server you run (each appliance gets a fresh
 * database on it, dropped at exit). Unset: the tests' harness starts a private server for
 * this process (test/helpers/postgres.ts: initdb in a temp dir, fsync on, default settings).
 */
function useBenchServer(): void {
  const url = process.env.MAILROOM_BENCH_PG_URL;
  if (url !== undefined && url !== '') process.env.MAILROOM_TEST_PG_URL = url;
}

export function benchPostgresAvailable(): boolean {
  useBenchServer();
  return postgresAvailable();
}

/** A fresh, empty database for one appliance (or for the nodes of one cluster). */
export function benchPostgresUrl(): Promise<string> {
  useBenchServer();
  return testPostgresUrl();
}

/** `postgres --version` of the binaries the harness would start, or the bench server's URL host. */
export function postgresVersion(): string {
  const own = process.env.MAILROOM_BENCH_PG_URL;
  if (own !== undefined && own !== '') return `server at ${new URL(own).host} (MAILROOM_BENCH_PG_URL)`;
  for (const dir of [
    '/usr/lib/postgresql/17/bin',
    '/usr/lib/postgresql/16/bin',
    '/usr/lib/postgresql/15/bin',
  ]) {
    const v = sh(path.join(dir, 'postgres'), ['--version']);
    if (v !== 'unknown') return v;
  }
  return sh('postgres', ['--version']);
}

/** What a PostgreSQL scenario reports when it cannot run. */
export function skippedSection(id: string, title: string): Section {
  const why =
    'PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or on PATH) and MAILROOM_BENCH_PG_URL is unset';
  return {
    id,
    title,
    lines: [`**Skipped:** ${why}. Install it (\`apt-get install postgresql\`) to run this scenario.`],
    figures: {},
  };
}

/** Reads the emails an end-to-end run made, from SQLite's file or from PostgreSQL. */
export interface EmailStore {
  /** Emails created since `since` that reached delivered, bounced or failed. */
  finished(since: string): Promise<number>;
  delivered(since: string): Promise<{ id: string; delivered_at: string }[]>;
  close(): Promise<void>;
}

/** The appliance's SQLite file, read-only (what end-to-end always read). */
export function sqliteEmailStore(dataDir: string): EmailStore {
  const db = new Database(path.join(dataDir, 'mail.db'), { readonly: true, fileMustExist: true });
  const count = db.prepare(
    `select count(*) as c from emails where created_at >= ? and status in ('delivered','bounced','failed')`,
  );
  const rows = db.prepare(
    `select id, delivered_at from emails where created_at >= ? and status = 'delivered'`,
  );
  return {
    finished: (since) => Promise.resolve((count.get(since) as { c: number }).c),
    delivered: (since) => Promise.resolve(rows.all(since) as { id: string; delivered_at: string }[]),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

/** The cluster's PostgreSQL database, through the appliance's own connection code. */
export function postgresEmailStore(url: string): EmailStore {
  const db = openDatabase(url, { poolSize: 2 });
  return {
    async finished(since) {
      const r = await db
        .selectFrom('emails')
        .select((eb) => eb.fn.countAll<string>().as('c'))
        .where('created_at', '>=', since)
        .where('status', 'in', ['delivered', 'bounced', 'failed'])
        .executeTakeFirstOrThrow();
      return Number(r.c);
    },
    async delivered(since) {
      const rows = await db
        .selectFrom('emails')
        .select(['id', 'delivered_at'])
        .where('created_at', '>=', since)
        .where('status', '=', 'delivered')
        .execute();
      return rows.map((r) => ({ id: r.id, delivered_at: r.delivered_at ?? '' }));
    },
    close: () => db.destroy(),
  };
}
