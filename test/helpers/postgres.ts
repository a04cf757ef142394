import crypto from 'node:crypto';
import type { TestContext } from 'node:test';
import { skipLoudly } from './missing-prerequisite';
import type { PostgresServer } from './postgres-server';
import {
  findPostgresBinaries,
  findPsql,
  psqlExec,
  psqlExecEachSync,
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
    psqlExecEachSync(
      shared,
      created.map((name) => `drop database if exists ${name} with (force)`),
    );
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
 * DDL on a database whose last connections are still closing (a pool just ended) fails with
 * "is being accessed by other users" until their backends exit: a short wait clears it.
 */
async function adminDdl(sql: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await psqlExec(adminUrl(), sql);
      return;
    } catch (err) {
      if (attempt >= 50 || !String(err).includes('being accessed by other users')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function urlOf(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database on a real PostgreSQL server, as a postgres:// URL: empty (a copy of
 * template1), or a copy of `template` (from postgresTemplate()). Throws, saying how to
 * install PostgreSQL, when there is none.
 */
export async function testPostgresUrl(options: { readonly template?: string } = {}): Promise<string> {
  if (!postgresAvailable()) throw new Error(missingText());
  adminUrl();
  hookExit();
  const name = `mr_${crypto.randomBytes(8).toString('hex')}`;
  await adminDdl(
    `create database ${name}${options.template === undefined ? '' : ` template ${options.template}`}`,
  );
  created.push(name);
  return urlOf(name);
}

const templates = new Map<string, Promise<string>>();

/**
 * A template database named by `key` (letters, digits, _), built once per server by `build`
 * on a fresh database and then shared: copying it is faster than building each time (the
 * migrations take about a second). Processes racing to build it both build; the first rename wins.
 */
export function postgresTemplate(key: string, build: (url: string) => Promise<void>): Promise<string> {
  if (!/^\w{1,40}$/.test(key)) throw new Error(`bad template key: ${key}`);
  let pending = templates.get(key);
  if (pending === undefined) {
    pending = buildTemplate(`mr_tpl_${key}`, build);
    templates.set(key, pending);
    void pending.catch(() => templates.delete(key));
  }
  return pending;
}

async function templateExists(name: string): Promise<boolean> {
  return (await psqlExec(adminUrl(), `select count(*) from pg_database where datname = '${name}'`)) === '1';
}

async function buildTemplate(name: string, build: (url: string) => Promise<void>): Promise<string> {
  if (await templateExists(name)) return name;
  const url = await testPostgresUrl();
  const draft = new URL(url).pathname.slice(1);
  await build(url);
  try {
    await adminDdl(`alter database ${draft} rename to ${name}`);
    created.splice(created.indexOf(draft), 1);
  } catch (err) {
    if (!(await templateExists(name))) throw err;
    await dropTestDatabase(url);
  }
  return name;
}

/** Drops a database testPostgresUrl() made, once nothing holds a connection to it that matters. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^mr_[0-9a-f]{16}$/.test(name)) throw new Error(`not a test database: ${name}`);
  await adminDdl(`drop database if exists ${name} with (force)`);
  const i = created.indexOf(name);
  if (i >= 0) created.splice(i, 1);
}

function missingText(): string {
  return sharedAdminUrl() !== undefined
    ? 'MAILROOM_TEST_PG_URL is set but psql is not installed (apt-get install postgresql-client)'
    : 'PostgreSQL is not installed: no initdb/pg_ctl/psql in /usr/lib/postgresql/*/bin or on PATH';
}

const SUBJECT = 'PostgreSQL tests';
const HINTS = [
  'Install it to run them:  apt-get install postgresql   (Debian/Ubuntu)',
  'or point MAILROOM_TEST_PG_URL at a superuser URL of a server you run.',
];

/**
 * For a test that needs PostgreSQL: `if (skipWithoutPostgres(t)) return;`. Skips with a loud
 * diagnostic when it is missing; under CI=true the test fails instead.
 */
export function skipWithoutPostgres(t: TestContext): boolean {
  if (postgresAvailable()) return false;
  t.skip(skipLoudly(SUBJECT, missingText(), HINTS));
  return true;
}

/**
 * For a whole suite: `describe('two nodes', requirePostgres(), () => …)`. Options that skip it
 * (with the banner) when PostgreSQL is missing; under CI=true it throws, failing the file.
 */
export function requirePostgres(): { skip?: string } {
  if (postgresAvailable()) return {};
  return { skip: skipLoudly(SUBJECT, missingText(), HINTS) };
}
