// Issue 21 item 3, a start that explains itself: a listener that cannot bind stops the
// appliance with one line naming the setting and exit 71 (no restart loop, no Haraka
// stack trace); a child failing the same way at start-up five times in a row stops it
// too; MAIL_HOSTNAME that is no FQDN is warned about at boot; and with no fixed
// worker-to-MTA port two appliances run side by side on one host.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import { freePorts } from '../helpers/free-port';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';

const MAIN = path.join(REPO_ROOT, 'dist', 'src', 'main.js');

interface Line {
  readonly level?: string;
  readonly event?: string;
  readonly name?: string;
  readonly msg?: string;
  readonly setting?: string;
  readonly failures?: number;
}

/** Runs `node dist/src/main.js` to its exit (killed after `timeoutMs`), with every stdout/stderr line. */
async function runUntilExit(
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; lines: string[]; ms: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-start-'));
  const [http, worker, smtp, submission] = (await freePorts(4)) as [number, number, number, number];
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: dataDir,
      PORT: String(http),
      WORKER_PORT: String(worker),
      SMTP_PORT: String(smtp),
      SUBMISSION_PORT: String(submission),
      BIND_ADDRESS: '127.0.0.1',
      MAIL_HOSTNAME: 'mx.mailroom-appliance.net',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const started = performance.now();
  const killer = setTimeout(() => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(killer);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { code, lines: out.split('\n').filter((l) => l !== ''), ms: performance.now() - started };
}

function parsed(lines: readonly string[]): Line[] {
  return lines.map((l) => {
    try {
      return JSON.parse(l) as Line;
    } catch {
      return { msg: l };
    }
  });
}

/** Holds a port on 127.0.0.1 as another program would. */
async function holdPort(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('start-up: a listener that cannot bind', () => {
  it('SMTP_PORT in use: one line naming it, exit 71, the mta started once, no Haraka stack trace', async () => {
    const [port] = (await freePorts(1)) as [number];
    const holder = await holdPort(port);
    try {
      const run = await runUntilExit({ SMTP_PORT: String(port), MAIL_HOSTNAME: 'vm' }, 60_000);
      const lines = parsed(run.lines);
      assert.equal(run.code, 71, run.lines.join('\n'));
      const failed = lines.filter((l) => l.event === 'listen_failed');
      assert.equal(failed.length, 1, run.lines.join('\n'));
      assert.equal(failed[0]?.msg, `SMTP_PORT ${port} is already in use`);
      assert.equal(failed[0]?.setting, 'SMTP_PORT');
      assert.equal(lines.filter((l) => l.event === 'process_started' && l.name === 'mta').length, 1);
      assert.ok(
        !lines.some((l) => l.event === 'process_started' && l.name !== 'mta'),
        'nothing else started',
      );
      assert.ok(!run.lines.some((l) => /Failed to setup listeners|\s{4}at /.test(l)), run.lines.join('\n'));
      // The boot warns about the OS-host-name default before anything binds.
      const warned = lines.find((l) => l.event === 'mail_hostname_not_fqdn');
      assert.ok(warned, 'MAIL_HOSTNAME warning');
      assert.match(warned.msg ?? '', /MAIL_HOSTNAME "vm" is not a public fully qualified domain name/);
      assert.match(warned.msg ?? '', /include:_spf\.vm/);
    } finally {
      holder.close();
    }
  });

  it('PORT in use: the api says so and the appliance ends with 71', async () => {
    const [port] = (await freePorts(1)) as [number];
    const holder = await holdPort(port);
    try {
      const run = await runUntilExit({ PORT: String(port) }, 60_000);
      const lines = parsed(run.lines);
      assert.equal(run.code, 71, run.lines.join('\n'));
      const failed = lines.filter((l) => l.event === 'listen_failed');
      assert.deepEqual(
        failed.map((l) => l.msg),
        [`PORT ${port} is already in use`],
      );
      assert.equal(lines.filter((l) => l.event === 'process_started' && l.name === 'api').length, 1);
      assert.ok(
        !lines.some((l) => l.event === 'mail_hostname_not_fqdn'),
        'mx.mailroom-appliance.net is fine',
      );
    } finally {
      holder.close();
    }
  });
});

describe('start-up: the supervisor gives up on a child that keeps failing the same way', () => {
  it('stops the appliance after five identical start-up failures instead of restarting forever', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-tls-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    fs.writeFileSync(cert, 'not a certificate\n');
    fs.writeFileSync(key, 'not a key\n');
    try {
      const run = await runUntilExit({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key }, 120_000);
      const lines = parsed(run.lines);
      assert.equal(run.code, 1, run.lines.join('\n'));
      assert.equal(lines.filter((l) => l.event === 'process_started' && l.name === 'mta').length, 5);
      const gaveUp = lines.find((l) => l.event === 'supervisor_giving_up');
      assert.equal(gaveUp?.name, 'mta');
      assert.equal(gaveUp?.failures, 5);
      assert.equal(lines.at(-1)?.event, 'supervisor_stopped');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('start-up: no fixed worker-to-MTA port', () => {
  it('two appliances side by side with MTA_INJECT_PORT unset both deliver', async () => {
    const started: SendingAppliance[] = [];
    try {
      // Unset (empty): each takes the port its boot chose; before, both wanted 2526.
      for (const domain of ['one.example.com', 'two.example.com'])
        started.push(await startSendingAppliance(domain, { MTA_INJECT_PORT: '' }));
      const ports = started.map((s) => {
        const chosen = parsed(s.app.lines).find((l) => l.event === 'mta_inject_port_chosen') as
          { port?: number } | undefined;
        assert.ok(chosen?.port !== undefined && chosen.port > 0);
        return chosen.port;
      });
      assert.notEqual(ports[0], ports[1]);
      for (const s of started) {
        const res = await s.app.api.post<{ id: string }>('/v1/emails', {
          token: s.apiKey,
          body: { from: `shop@${s.domain.domain}`, to: 'buyer@dest.test', subject: 'Hi', text: 'Hello' },
        });
        assert.equal(res.status, 202, res.text);
        const [message] = await s.sink.waitForMessages(1, 30_000);
        assert.ok(message?.raw.toString('utf8').includes(`From: shop@${s.domain.domain}`));
      }
    } finally {
      for (const s of started) await s.stop();
    }
  });
});

describe('start-up: MAIL_HOSTNAME that is not a fully qualified name', () => {
  it('ctl config check and ctl doctor warn about it (the boot warning is checked above)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-hostname-'));
    try {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        DATA_DIR: dataDir,
        MAIL_HOSTNAME: 'vm',
        BASE_URL: 'https://mail.example.net',
      };
      const check = await runCtl(env, ['config', 'check']);
      assert.equal(check.code, 0, check.stderr);
      assert.match(check.stdout, /configuration is valid/);
      assert.match(check.stderr, /^warning: MAIL_HOSTNAME "vm" is not a public fully qualified domain name/);
      assert.match(check.stderr, /include:_spf\.vm/);

      const fine = await runCtl({ ...env, MAIL_HOSTNAME: 'mail.example.net' }, ['config', 'check']);
      assert.equal(fine.stderr, '');

      const doctor = await runCtl(env, ['doctor', '--offline', '--json']);
      const report = JSON.parse(doctor.stdout) as {
        checks: { id: string; status: string; hints: string[] }[];
      };
      const config = report.checks.find((c) => c.id === 'config');
      assert.equal(config?.status, 'warn');
      assert.ok(
        config.hints.some((h) =>
          h.includes('MAIL_HOSTNAME "vm" is not a public fully qualified domain name'),
        ),
        JSON.stringify(config),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
