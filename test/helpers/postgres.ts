import crypto from 'node:crypto';
import type { TestContext } from 'node:test';
import type { PostgresServer } from './postgres-server';
import {
  findPostgresBinaries,
  findPsql,
  psqlExec,
  psqlExecSync,
  startPostgresServer,
} from './postgres-server';

/*
 * The real PostgreSQL server the tests use (issue 23, "Tests": no mock, no emulation).
 * Either the run's shared server, named by MAILROOM_TEST_PG_URL (a superuser URL; started
 * by scripts/with-postgres.mjs for `npm test` / `npm run test:pg`), or one started lazily
 * for this test process and stopped at its exit. Every caller gets its own fresh database.
 */

/** The shared server's superuser URL, when the run started one. */
function sharedAdminUrl(): string | undefined {
  const url = process.env.MAILROOM_TEST_PG_URL;
  return url === undefined || url === '' ? undefined : url;
}

/** Is there a server to test against (the run's shared one, or binaries to start one)? */
export function postgresAvailable(): boolean {
  if (sharedAdminUrl() !== undefined) return findPsql() !== undefined;
  return findPostgresBinaries() !== undefined;
}

/** Which backend the matrix runs this process on: `MAILROOM_TEST_BACKEND=postgres` or SQLite. */
export function testBackend(): 'sqlite' | 'postgres' {
  const wanted = process.env.MAILROOM_TEST_BACKEND ?? 'sqlite';
  if (wanted === 'sqlite' || wanted === '') return 'sqlite';
  if (wanted === 'postgres') return 'postgres';
  throw new Error(`MAILROOM_TEST_BACKEND must be 'sqlite' or 'postgres', not '${wanted}'`);
}

let ownServer: PostgresServer | undefined;
const created: string[] = [];

function onExit(): void {
  const shared = sharedAdminUrl();
  if (shared !== undefined && created.length > 0) {
    // The shared server outlives this process: give back the disk its databases hold.
    psqlExecSync(shared, created.map((name) => `drop database if exists ${name} with (force);`).join('\n'));
  }
  ownServer?.stop();
}

let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', onExit);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const handler = (): void => {
      onExit();
      process.removeListener(signal, handler);
      // Only re-raise when nobody else handles it: then the default action ends the process.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, handler);
  }
}

function adminUrl(): string {
  const shared = sharedAdminUrl();
  if (shared !== undefined) return shared;
  if (!ownServer) {
    hookExit();
    ownServer = startPostgresServer();
  }
  return ownServer.adminUrl;
}

/**
 * A fresh, empty database on a real PostgreSQL server (CREATE DATABASE from template1),
 * as a postgres:// URL. Throws, with how to install PostgreSQL, when there is none.
 */
export async function testPostgresUrl(): Promise<string> {
  if (!postgresAvailable()) throw new Error(missingText());
  const admin = adminUrl();
  hookExit();
  const name = `mr_${crypto.randomBytes(8).toString('hex')}`;
  await psqlExec(admin, `create database ${name}`);
  created.push(name);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database testPostgresUrl() made, once nothing holds a connection to it that matters. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^mr_[0-9a-f]{16}$/.test(name)) throw new Error(`not a test database: ${name}`);
  await psqlExec(adminUrl(), `drop database if exists ${name} with (force)`);
  const i = created.indexOf(name);
  if (i >= 0) created.splice(i, 1);
}

function missingText(): string {
  return sharedAdminUrl() !== undefined
    ? 'MAILROOM_TEST_PG_URL is set but psql is not installed (apt-get install postgresql-client)'
    : 'PostgreSQL is not installed: no initdb/pg_ctl/psql in /usr/lib/postgresql/*/bin or on PATH';
}

let bannerShown = false;
function banner(): void {
  if (bannerShown) return;
  bannerShown = true;
  const line = '!'.repeat(78);
  // A skipped PostgreSQL test is easy to miss in a green run: say it loudly, once per process.
  console.error(
    [
      line,
      `!! SKIPPING PostgreSQL tests: ${missingText()}.`,
      '!! Install it to run them:  apt-get install postgresql   (Debian/Ubuntu)',
      '!! or point MAILROOM_TEST_PG_URL at a superuser URL of a server you run.',
      '!! Under CI=true these tests fail instead of skipping.',
      line,
    ].join('\n'),
  );
}

function inCi(): boolean {
  return process.env.CI === 'true';
}

/**
 * For a test that needs PostgreSQL: `if (skipWithoutPostgres(t)) return;`. Skips with a loud
 * diagnostic when it is missing; under CI=true the test fails instead.
 */
export function skipWithoutPostgres(t: TestContext): boolean {
  if (postgresAvailable()) return false;
  if (inCi()) throw new Error(`${missingText()} (CI=true: PostgreSQL tests must run)`);
  banner();
  t.skip(missingText());
  return true;
}

/**
 * For a whole suite: `describe('two nodes', requirePostgres(), () => …)`. Options that skip it
 * (with the banner) when PostgreSQL is missing; under CI=true it throws, failing the file.
 */
export function requirePostgres(): { skip?: string } {
  if (postgresAvailable()) return {};
  if (inCi()) throw new Error(`${missingText()} (CI=true: PostgreSQL tests must run)`);
  banner();
  return { skip: missingText() };
}
