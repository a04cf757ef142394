import type { SpawnSyncReturns } from 'node:child_process';
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The user PostgreSQL runs as when this process is root (Debian's `postgresql` package creates it). */
const SERVER_USER = 'postgres';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly pgCtl: string;
  readonly psql: string;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/**
 * Debian installs the server binaries in /usr/lib/postgresql/<major>/bin and puts only the
 * client wrappers on PATH; the newest major there wins, else whatever PATH holds.
 */
export function findPostgresBinaries(): PostgresBinaries | undefined {
  const base = '/usr/lib/postgresql';
  let majors: string[] = [];
  try {
    majors = fs.readdirSync(base).filter((d) => /^\d+$/.test(d));
  } catch {
    /* not a Debian layout */
  }
  majors.sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = path.join(base, major, 'bin');
    const found = {
      initdb: path.join(bin, 'initdb'),
      pgCtl: path.join(bin, 'pg_ctl'),
      psql: path.join(bin, 'psql'),
    };
    if (Object.values(found).every(executable)) return found;
  }
  const initdb = onPath('initdb');
  const pgCtl = onPath('pg_ctl');
  const psql = onPath('psql');
  return initdb && pgCtl && psql ? { initdb, pgCtl, psql } : undefined;
}

/** psql alone: enough to make databases on a server someone else runs. */
export function findPsql(): string | undefined {
  return findPostgresBinaries()?.psql ?? onPath('psql');
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** PostgreSQL refuses to run as root ("root" execution of the server is not permitted). */
function asServerUser(file: string, args: readonly string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', SERVER_USER, '--', file, ...args]] : [file, [...args]];
}

function runChecked(file: string, args: readonly string[], what: string): SpawnSyncReturns<string> {
  const [cmd, argv] = asServerUser(file, args);
  const result = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw new Error(`postgres harness: ${what} failed: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`postgres harness: ${what} exited ${result.status}:\n${result.stdout}${result.stderr}`);
  }
  return result;
}

export interface PostgresServer {
  /** Superuser URL on the maintenance database `postgres`. */
  readonly adminUrl: string;
  readonly port: number;
  /** The temp dir holding the data dir, the unix socket and server.log. */
  readonly root: string;
  /** Stops the server and removes its files; synchronous, so it can run in an 'exit' handler. */
  stop(): void;
}

/*
 * Cleans up after a parent killed with SIGKILL (or a test runner's timeout), where no exit
 * handler runs: polls the parent and, once it is gone, stops the server and removes its dir.
 */
const WATCHDOG = `
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const o = JSON.parse(process.argv[1]);
const timer = setInterval(() => {
  if (!fs.existsSync(o.root)) process.exit(0);
  try { process.kill(o.parent, 0); return; } catch {}
  clearInterval(timer);
  spawnSync(o.stop[0], o.stop.slice(1), { stdio: 'ignore' });
  fs.rmSync(o.root, { recursive: true, force: true });
  process.exit(0);
}, 500);
`;

const SERVER_SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  // Several appliances (api, worker, mta processes, each with a pool) share one server per run.
  'max_connections = 400',
  'shared_buffers = 64MB',
  // fsync and synchronous_commit stay at their defaults: the crash tests (SIGKILL during a
  // run) must mean on PostgreSQL what they mean on SQLite with synchronous=FULL.
  "log_min_messages = 'warning'",
  "log_timezone = 'UTC'",
  "timezone = 'UTC'",
];

/**
 * initdb + pg_ctl start in a fresh temp dir, as an unprivileged user, on 127.0.0.1 and an
 * ephemeral port (unix socket in the temp dir, so nothing touches /var/run/postgresql).
 * The caller owns the returned server and must stop() it; a watchdog stops it if the
 * calling process dies without doing so.
 */
export function startPostgresServer(): PostgresServer {
  const bins = findPostgresBinaries();
  if (!bins) throw new Error('postgres harness: initdb/pg_ctl/psql not found (apt-get install postgresql)');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-pg-'));
  const data = path.join(root, 'data');
  const cleanup = (): void => fs.rmSync(root, { recursive: true, force: true });
  try {
    if (isRoot()) {
      const user = spawnSync('id', ['-u', SERVER_USER], { encoding: 'utf8' });
      const group = spawnSync('id', ['-g', SERVER_USER], { encoding: 'utf8' });
      if (user.status !== 0 || group.status !== 0) {
        throw new Error(`postgres harness: running as root and there is no '${SERVER_USER}' user to run as`);
      }
      fs.chownSync(root, Number(user.stdout.trim()), Number(group.stdout.trim()));
    }
    // --no-sync: the fresh cluster is thrown away with the run; the server itself keeps fsync on.
    runChecked(
      bins.initdb,
      [
        '-D',
        data,
        '--locale=C',
        '-E',
        'UTF8',
        '--auth=trust',
        '-U',
        'postgres',
        '--no-sync',
        '--no-instructions',
      ],
      'initdb',
    );
    fs.appendFileSync(path.join(data, 'postgresql.conf'), `\n${SERVER_SETTINGS.join('\n')}\n`);
  } catch (err) {
    cleanup();
    throw err;
  }
  return startOnPort(bins, root, data, cleanup);
}

function startOnPort(
  bins: PostgresBinaries,
  root: string,
  data: string,
  cleanup: () => void,
): PostgresServer {
  const log = path.join(root, 'server.log');
  for (let attempt = 1; ; attempt++) {
    // The range free-port.ts draws from, below the kernel's ephemeral ports; synchronous so the
    // server can be started and stopped from plain (non-async) exit paths. A lost race retries.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const [cmd, argv] = asServerUser(bins.pgCtl, [
      '-D',
      data,
      '-l',
      log,
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${root}`,
      'start',
    ]);
    const result = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (result.status === 0) return running(bins, root, data, port, cleanup);
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
    // Another process took the port between our pick and the bind: pick again.
    if (/could not bind|Address already in use/i.test(text) && attempt < 5) continue;
    cleanup();
    throw new Error(`postgres harness: pg_ctl start failed (${result.status}):\n${result.stderr}\n${text}`);
  }
}

function running(
  bins: PostgresBinaries,
  root: string,
  data: string,
  port: number,
  cleanup: () => void,
): PostgresServer {
  const stopCommand = asServerUser(bins.pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
  const watchdog = spawn(
    process.execPath,
    [
      '-e',
      WATCHDOG,
      JSON.stringify({ parent: process.pid, root, stop: [stopCommand[0], ...stopCommand[1]] }),
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  let stopped = false;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    root,
    stop() {
      if (stopped) return;
      stopped = true;
      spawnSync(stopCommand[0], stopCommand[1], { stdio: 'ignore' });
      if (watchdog.pid !== undefined) {
        try {
          process.kill(watchdog.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      cleanup();
    },
  };
}

/** Runs SQL on the server named by `url` (psql; the harness needs no driver of its own). */
export async function psqlExec(url: string, sql: string): Promise<string> {
  const psql = findPsql();
  if (!psql) throw new Error('postgres harness: psql not found (apt-get install postgresql-client)');
  const { stdout } = await execFileAsync(
    psql,
    ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql],
    {
      encoding: 'utf8',
    },
  );
  return stdout.trim();
}

export function psqlExecSync(url: string, sql: string): void {
  const psql = findPsql();
  if (!psql) return;
  spawnSync(psql, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], { stdio: 'ignore' });
}
