import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { requirePostgres, testPostgresUrl } from './postgres';
import { psqlExec } from './postgres-server';
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

  it('runs the server as an unprivileged user, never root', async () => {
    const url = await testPostgresUrl();
    assert.notEqual(await psqlExec(url, 'select current_user'), 'root');
    // The backend serving this very query is a child of the postmaster: same uid.
    const pid = Number(await psqlExec(url, 'select pg_backend_pid()'));
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
