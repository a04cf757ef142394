// The mta process for real: `node dist/src/mta/main.js` renders the Haraka config, runs
// Haraka with our plugins on 127.0.0.1, and is spoken to over a raw socket. DNS goes to
// the fake server only (DNS_SERVERS), which is how the reverse lookup is observed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import type { MtaProcess } from '../helpers/mta-process';
import { findEvent, startMta } from '../helpers/mta-process';
import { SmtpClient } from '../helpers/smtp-client';
import { processDatabase } from '../helpers/test-db';

const HOSTNAME = 'mx.test.example';
const MAX_BYTES = 123_456;

async function mtaEnv(dns: FakeDns): Promise<Record<string, string>> {
  const [smtp, inject] = (await freePorts(2)) as [number, number];
  return {
    PATH: process.env.PATH ?? '',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-mta-')),
    SMTP_PORT: String(smtp),
    MTA_INJECT_PORT: String(inject),
    // No submission listener: its default port would be shared by every test's Haraka.
    SUBMISSION_PORT: '0',
    BIND_ADDRESS: '127.0.0.1',
    MAIL_HOSTNAME: HOSTNAME,
    DNS_SERVERS: dns.address,
    EMAIL_MAX_SIZE_BYTES: String(MAX_BYTES),
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '8000',
  };
}

describe('mta process', () => {
  let dns: FakeDns;
  let env: Record<string, string>;
  let mta: MtaProcess;
  let client: SmtpClient;
  let greeting: string;

  before(async () => {
    dns = await startDnsServer();
    dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['client.test.example']);
    env = await mtaEnv(dns);
    // An empty, migrated database: no receiving domain (mailroom-rcpt answers 451 without one).
    Object.assign(env, (await processDatabase(env.DATA_DIR!, { migrated: true })).env);
    mta = await startMta(env);
    const connected = await SmtpClient.connect(Number(env.SMTP_PORT));
    client = connected.client;
    greeting = connected.greeting.raw;
  });

  after(async () => {
    client.close();
    if (mta.child.exitCode === null) mta.child.kill('SIGKILL');
    await dns.close();
    fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
  });

  it('greets with a multi-line 220 naming MAIL_HOSTNAME and the relay policy', () => {
    const lines = greeting.split('\n');
    assert.match(lines[0]!, new RegExp(`^220-${HOSTNAME.replaceAll('.', '\\.')} ESMTP Mailroom ready`));
    assert.match(lines.at(-1)!, /^220 No relaying/);
    assert.ok(
      lines.slice(0, -1).every((l) => l.startsWith('220-')),
      greeting,
    );
    // On the wire (CRLF after each line) over 200 bytes: container-check reads `head -c 200`.
    const wireBytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 2, 0);
    assert.ok(wireBytes > 200, `greeting is ${wireBytes} bytes`);
    assert.doesNotMatch(greeting, /Haraka/, 'the software and its version are not advertised');
  });

  it('advertises SIZE = EMAIL_MAX_SIZE_BYTES and greets the client by its PTR name', async () => {
    const ehlo = await client.command('EHLO client.test.example');
    assert.equal(ehlo.code, 250);
    assert.ok(ehlo.lines.includes(`SIZE ${MAX_BYTES}`), ehlo.raw);
    // The name can only come from the fake DNS: /etc/hosts maps 127.0.0.1 to something else.
    assert.match(ehlo.lines[0]!, /Hello client\.test\.example \[127\.0\.0\.1\]/);
  });

  it('sent the reverse lookup of 127.0.0.1 to DNS_SERVERS', () => {
    assert.ok(
      dns.queries.some((q) => q.name === '1.0.0.127.in-addr.arpa' && q.type === 'PTR'),
      JSON.stringify(dns.queries),
    );
  });

  it('accepts MAIL FROM and refuses any recipient with 550 5.1.1 (no receiving domain)', async () => {
    assert.equal((await client.command('MAIL FROM:<sender@example.org>')).code, 250);
    for (const rcpt of ['someone@example.com', `postmaster@${HOSTNAME}`, 'x@[127.0.0.1]']) {
      const reply = await client.command(`RCPT TO:<${rcpt}>`);
      assert.equal(reply.code, 550, `${rcpt}: ${reply.raw}`);
      assert.match(reply.raw, /^550 5\.1\.1 /);
    }
  });

  it('refuses every relay form with 5xx', async () => {
    const battery = [
      'user%other@host.example',
      'host.example!user',
      '"user@other"@host.example',
      '@a.example:user@b.example',
      '@a.example,@b.example:user@c.example',
      'user@other@host.example',
      '"user%other"@host.example',
      'user@[127.0.0.1]',
      'user@localhost',
      `user@${HOSTNAME}.`,
    ];
    for (const rcpt of battery) {
      const reply = await client.command(`RCPT TO:<${rcpt}>`);
      assert.ok(reply.code >= 500 && reply.code < 600, `${rcpt}: ${reply.raw}`);
    }
    // Nothing was accepted, so there is no transaction to send data for.
    assert.equal((await client.command('DATA')).code, 503);
  });

  it('offers STARTTLS on the MX (self-signed certificate in DATA_DIR/tls), not on the injection listener', async () => {
    const ehlo = await client.command('EHLO client.test.example');
    assert.ok(ehlo.lines.includes('STARTTLS'), ehlo.raw);
    assert.ok(fs.existsSync(path.join(env.DATA_DIR!, 'tls', 'cert.pem')));
    const { client: inject } = await SmtpClient.connect(Number(env.MTA_INJECT_PORT));
    const injectEhlo = await inject.command('EHLO localhost');
    assert.ok(!injectEhlo.lines.includes('STARTTLS'), injectEhlo.raw);
    inject.close();
  });

  it('answers on the loopback injection listener too', async () => {
    const { client: inject, greeting: banner } = await SmtpClient.connect(Number(env.MTA_INJECT_PORT));
    assert.equal(banner.code, 220);
    assert.equal((await inject.command('QUIT')).code, 221);
    inject.close();
  });

  it('stops within 10 s of SIGTERM, exit code 0, and wrote only JSON lines with an event', async () => {
    assert.equal((await client.command('QUIT')).code, 221);
    const started = Date.now();
    mta.child.kill('SIGTERM');
    const { code } = await mta.exited;
    const ms = Date.now() - started;
    assert.ok(ms < 10_000, `stopped in ${ms} ms`);
    // Idle, Haraka's graceful stop has nothing to wait for; seconds here mean something
    // keeps its event loop alive (e.g. a referenced IPC channel) until its force timeout.
    assert.ok(ms < 3_000, `an idle MTA stops at once, took ${ms} ms`);
    assert.equal(code, 0);

    assert.ok(mta.stdout.length > 10, 'Haraka logged through us');
    for (const line of mta.stdout) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      assert.equal(typeof parsed.event, 'string', line);
    }
    assert.deepEqual(mta.stderr, []);
    for (const event of [
      'mta_config_rendered',
      'mta_ready',
      'mta_dns_servers',
      'mta_stopping',
      'mta_stopped',
    ]) {
      assert.ok(findEvent(mta.stdout, event), `event ${event} logged`);
    }
  });
});

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('mta process lifetime', () => {
  it('Haraka does not outlive an mta process killed with SIGKILL', async () => {
    const dns = await startDnsServer();
    const env = await mtaEnv(dns);
    const mta = await startMta(env);
    let freed = false;
    try {
      assert.equal(await canListen(Number(env.SMTP_PORT)), false, 'Haraka holds the port');
      // Let the readiness probe's session finish logging while the parent still reads.
      const logged = Date.now() + 5_000;
      while (!mta.stdout.some((l) => l.includes('"msg":"disconnect"')) && Date.now() < logged) {
        await new Promise((r) => setTimeout(r, 20));
      }
      mta.child.kill('SIGKILL');
      await mta.exited;
      // The port is what a restarted mta process needs back (a zombie pid would not hold it).
      // Binding the port ourselves proves Haraka let go of it, without connecting: a
      // connection would make Haraka log, and a write to its dead stdout pipe would
      // end it for the wrong reason.
      const deadline = Date.now() + 5_000;
      while (!(await canListen(Number(env.SMTP_PORT))) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      freed = await canListen(Number(env.SMTP_PORT));
      assert.ok(freed, 'Haraka exited with its parent and freed the port');
    } finally {
      // Should the guard fail, do not leave Haraka holding the port for other tests.
      const harakaPid = findEvent(mta.stdout, 'mta_starting')?.harakaPid;
      if (!freed && typeof harakaPid === 'number') {
        try {
          process.kill(harakaPid, 'SIGKILL');
        } catch {
          // gone, as it should be
        }
      }
      await dns.close();
      fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
    }
  });
});
