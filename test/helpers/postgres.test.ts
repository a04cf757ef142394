import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { describe, it } from 'node:test';
import { postgresTemplate, requirePostgres, testPostgresUrl } from './postgres';
import { psqlExec, startPostgresServer } from './postgres-server';
import { waitUntil } from './wait-until';

const HELPER = path.join(__dirname, 'postgres.js');

function uidOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
  assert.ok(uid !== undefined, `no Uid line for ${pid}`);
  return Number(uid);
}

/** Processes whose command line names this port (the postmaster and its children). */
function serverProcesses(port: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.includes('mailroom-pg-') && cmdline.includes(`-p\0${port}\0`)) pids.push(Number(entry));
  }
  return pids;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A separate test process with its own lazily started server (no shared one): prints the URL. */
function childWithOwnServer(thenWait: boolean): { child: ChildProcess; url: Promise<string> } {
  const env = { ...process.env };
  delete env.MAILROOM_TEST_PG_URL;
  const script = `require(${JSON.stringify(HELPER)}).testPostgresUrl().then((u) => {
    console.log(u);
    ${thenWait ? 'setInterval(() => {}, 1000);' : 'process.exit(0);'}
  });`;
  const child = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code} before printing a URL`)));
  });
  return { child, url };
}

void describe('PostgreSQL test harness', requirePostgres(), () => {
  it('gives each caller its own empty database', async () => {
    const a = await testPostgresUrl();
    const b = await testPostgresUrl();
    assert.notEqual(a, b);
    await psqlExec(a, 'create table only_in_a (x int); insert into only_in_a values (1)');
    assert.equal(await psqlExec(a, 'select count(*) from only_in_a'), '1');
    assert.equal(await psqlExec(b, "select count(*) from pg_tables where schemaname = 'public'"), '0');
    await assert.rejects(psqlExec(b, 'select * from only_in_a'), /does not exist/);
  });

  it('copies a template built once: each copy has its tables, and copies stay apart', async () => {
    let builds = 0;
    const build = async (url: string): Promise<void> => {
      builds++;
      await psqlExec(url, 'create table built (x int)');
    };
    const key = `harness_${process.pid}`;
    const [t1, t2] = await Promise.all([postgresTemplate(key, build), postgresTemplate(key, build)]);
    assert.equal(t1, t2);
    assert.equal(builds, 1);
    const a = await testPostgresUrl({ template: t1 });
    const b = await testPostgresUrl({ template: t1 });
    await psqlExec(a, 'insert into built values (1)');
    assert.equal(await psqlExec(a, 'select count(*) from built'), '1');
    assert.equal(await psqlExec(b, 'select count(*) from built'), '0');
  });

  it('drops the databases a test process made on the shared server when it exits', async () => {
    const server = startPostgresServer();
    try {
      const script = `const h = require(${JSON.stringify(HELPER)});
        Promise.all([h.testPostgresUrl(), h.testPostgresUrl()]).then((u) => {
          console.log(JSON.stringify(u));
          process.exit(0);
        });`;
      const run = spawnSync(process.execPath, ['-e', script], {
        env: { ...process.env, MAILROOM_TEST_PG_URL: server.adminUrl },
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const urls = JSON.parse(run.stdout) as string[];
      assert.equal(urls.length, 2);
      for (const url of urls) {
        const name = new URL(url).pathname.slice(1);
        const left = await psqlExec(
          server.adminUrl,
          `select count(*) from pg_database where datname = '${name}'`,
        );
        assert.equal(left, '0', `${name} outlived its test process`);
      }
    } finally {
      server.stop();
    }
  });

  it('runs the server as an unprivileged user, never root', async () => {
    const url = await testPostgresUrl();
    assert.notEqual(await psqlExec(url, 'select current_user'), 'root');
    // The checkpointer lives as long as the server and runs as its user (a backend's pid
    // would be gone with psql's session before /proc could be read).
    const pid = Number(
      await psqlExec(url, "select pid from pg_stat_activity where backend_type = 'checkpointer'"),
    );
    assert.ok(pid > 0);
    assert.notEqual(uidOf(pid), 0);
    const port = Number(new URL(url).port);
    const server = serverProcesses(port);
    assert.ok(server.length > 0 || process.env.MAILROOM_TEST_PG_URL, 'no postmaster found for the port');
    for (const p of server) assert.notEqual(uidOf(p), 0, `server process ${p} runs as root`);
  });

  it('stops its own server and removes it when the test process exits', async () => {
    const { child, url } = childWithOwnServer(false);
    const port = Number(new URL(await url).port);
    await new Promise((r) => child.once('exit', r));
    assert.equal(await accepts(port), false);
    assert.deepEqual(serverProcesses(port), []);
  });

  it('leaves no orphan server when the test process is killed with SIGKILL', async () => {
    const { child, url } = childWithOwnServer(true);
    const port = Number(new URL(await url).port);
    assert.equal(await accepts(port), true);
    child.kill('SIGKILL');
    // The watchdog polls twice a second; generous bound for a loaded machine.
    await waitUntil('the orphaned server to stop', () => serverProcesses(port).length === 0, 30_000);
    assert.equal(await accepts(port), false);
  });

  it('leaves no orphan server when the test process gets SIGTERM', async () => {
    const { child, url } = childWithOwnServer(true);
    const port = Number(new URL(await url).port);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    assert.deepEqual(serverProcesses(port), []);
    assert.equal(await accepts(port), false);
  });
});

void describe('PostgreSQL test harness without PostgreSQL', () => {
  /** requirePostgres() in a process that finds no binaries and no shared server. */
  function withoutPostgres(ci: boolean): { status: number | null; stdout: string; stderr: string } {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      MAILROOM_TEST_PG_BINDIR: fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-no-pg-')),
    };
    if (ci) env.CI = 'true';
    const script = `const o = require(${JSON.stringify(HELPER)}).requirePostgres(); console.log(JSON.stringify(o));`;
    return spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  }

  it('skips with a loud banner naming what is missing and how to install it', () => {
    const run = withoutPostgres(false);
    assert.equal(run.status, 0, run.stderr);
    assert.match((JSON.parse(run.stdout) as { skip?: string }).skip ?? '', /PostgreSQL is not installed/);
    assert.match(run.stderr, /SKIPPING PostgreSQL tests/);
    assert.match(run.stderr, /apt-get install postgresql/);
  });

  it('fails under CI=true instead of skipping', () => {
    const run = withoutPostgres(true);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /CI=true: PostgreSQL tests must run/);
  });
});
