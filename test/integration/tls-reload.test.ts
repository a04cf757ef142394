// Certificate reload without a restart: the real mta process serves TLS_CERT_FILE /
// TLS_KEY_FILE on the MX and submission (STARTTLS) and on SMTPS_PORT (implicit TLS);
// the files are replaced the way certbot does (new file, rename) or rewritten in
// place, and new handshakes are watched until they present the new certificate.
// A pair whose key does not match is logged and ignored.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { SmtpReplyReader } from '../../src/mta/smtp-reply-reader';
import type { SmtpReply } from '../../src/mta/smtp-reply-reader';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import type { MtaProcess } from '../helpers/mta-process';
import { startMta } from '../helpers/mta-process';
import { processDatabase } from '../helpers/test-db';
import { makeSelfSignedCert } from '../helpers/tls-cert';

const HOSTNAME = 'mx.reload.test';
const STEP_MS = 5_000;

interface Cert {
  readonly key: Buffer;
  readonly cert: Buffer;
  readonly fingerprint: string;
}

function makeCert(dir: string, name: string, cn: string): Cert {
  const { keyFile, certFile } = makeSelfSignedCert({
    dir,
    name,
    subject: `/CN=${cn}`,
    altNames: [`DNS:${cn}`],
  });
  const cert = fs.readFileSync(certFile);
  return {
    key: fs.readFileSync(keyFile),
    cert,
    fingerprint: new crypto.X509Certificate(cert).fingerprint256,
  };
}

/** certbot-style: a complete new file renamed over the old one (a new inode). */
function replace(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** One reply from a line-based SMTP socket. */
function replyReader(socket: net.Socket): () => Promise<SmtpReply> {
  const reader = new SmtpReplyReader();
  const queue: SmtpReply[] = [];
  let waiting: ((r: SmtpReply) => void) | undefined;
  const onData = (d: Buffer): void => {
    queue.push(...reader.push(d.toString('latin1')));
    const next = waiting && queue.shift();
    if (next !== undefined && waiting) {
      const w = waiting;
      waiting = undefined;
      w(next);
    }
  };
  socket.on('data', onData);
  return () =>
    new Promise((resolve, reject) => {
      const ready = queue.shift();
      if (ready !== undefined) {
        resolve(ready);
        return;
      }
      const timer = setTimeout(() => reject(new Error('no SMTP reply in time')), STEP_MS);
      waiting = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
    });
}

/** Connect, EHLO, STARTTLS, handshake: the certificate the server presented. */
async function starttlsFingerprint(port: number, servername?: string): Promise<string> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  try {
    const next = replyReader(socket);
    assert.equal((await next()).code, 220);
    socket.write('EHLO client.reload.test\r\n');
    const ehlo = await next();
    assert.ok(ehlo.lines.includes('STARTTLS'), ehlo.raw);
    socket.write('STARTTLS\r\n');
    assert.equal((await next()).code, 220);
    socket.removeAllListeners('data');
    return await handshake({ socket, servername });
  } finally {
    socket.destroy();
  }
}

function handshake(options: tls.ConnectionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ ...options, rejectUnauthorized: false }, () => {
      const fingerprint = secure.getPeerCertificate().fingerprint256;
      secure.destroy();
      resolve(fingerprint);
    });
    secure.setTimeout(STEP_MS, () => {
      secure.destroy();
      reject(new Error('TLS handshake timeout'));
    });
    secure.once('error', reject);
  });
}

function smtpsFingerprint(port: number): Promise<string> {
  return handshake({ port, host: '127.0.0.1' });
}

describe(
  'TLS certificate reload',
  {
    skip:
      (() => {
        try {
          execFileSync('openssl', ['version'], { stdio: 'ignore' });
          return false;
        } catch {
          return true;
        }
      })() && 'openssl not installed',
  },
  () => {
    let dns: FakeDns;
    let mta: MtaProcess;
    let dir: string;
    let dataDir: string;
    let certFile: string;
    let keyFile: string;
    let ports: { smtp: number; submission: number; smtps: number };
    let a: Cert;
    let b: Cert;
    let c: Cert;

    /** Every listener's certificate, as a new client would see it now. */
    async function served(): Promise<Record<string, string>> {
      return {
        mx: await starttlsFingerprint(ports.smtp),
        mxWithSni: await starttlsFingerprint(ports.smtp, HOSTNAME),
        submission: await starttlsFingerprint(ports.submission),
        smtps: await smtpsFingerprint(ports.smtps),
        smtpsWithSni: await handshake({ port: ports.smtps, host: '127.0.0.1', servername: HOSTNAME }),
      };
    }

    function everywhere(fingerprint: string): Record<string, string> {
      return {
        mx: fingerprint,
        mxWithSni: fingerprint,
        submission: fingerprint,
        smtps: fingerprint,
        smtpsWithSni: fingerprint,
      };
    }

    /** Polls (no fixed sleep) until every listener serves `fingerprint`; then asserts it. */
    async function untilServed(fingerprint: string): Promise<void> {
      const deadline = Date.now() + 30_000;
      let now = await served();
      while (Object.values(now).some((f) => f !== fingerprint) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        now = await served();
      }
      assert.deepEqual(now, everywhere(fingerprint));
    }

    /** The fields of each `name` event (a plugin's fields sit under `data`, src/mta/haraka-log.ts). */
    function events(name: string): Record<string, unknown>[] {
      return mta.stdout
        .filter((l) => l.includes(`"${name}"`))
        .map((l) => JSON.parse(l) as { event?: unknown; data?: Record<string, unknown> })
        .filter((e) => e.event === name)
        .map((e) => e.data ?? {});
    }

    async function untilEvent(name: string, count: number): Promise<Record<string, unknown>> {
      const deadline = Date.now() + 30_000;
      while (events(name).length < count && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const found = events(name);
      assert.ok(found.length >= count, `${count} × ${name} logged`);
      return found[count - 1]!;
    }

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-tls-reload-'));
      a = makeCert(dir, 'a', HOSTNAME);
      b = makeCert(dir, 'b', HOSTNAME);
      c = makeCert(dir, 'c', 'other.reload.test');
      certFile = path.join(dir, 'fullchain.pem');
      keyFile = path.join(dir, 'privkey.pem');
      fs.writeFileSync(certFile, a.cert);
      fs.writeFileSync(keyFile, a.key, { mode: 0o600 });

      dns = await startDnsServer();
      const [smtp, inject, submission, smtps] = (await freePorts(4)) as [number, number, number, number];
      ports = { smtp, submission, smtps };
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-mta-'));
      const databaseEnv = (await processDatabase(dataDir, { migrated: true })).env;
      mta = await startMta({
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        ...databaseEnv,
        SMTP_PORT: String(smtp),
        MTA_INJECT_PORT: String(inject),
        SUBMISSION_PORT: String(submission),
        SMTPS_PORT: String(smtps),
        BIND_ADDRESS: '127.0.0.1',
        MAIL_HOSTNAME: HOSTNAME,
        DNS_SERVERS: dns.address,
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT_MS: '8000',
      });
    });

    after(async () => {
      if (mta.child.exitCode === null) {
        mta.child.kill('SIGTERM');
        await mta.exited;
      }
      await dns.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves TLS_CERT_FILE on the MX, submission (STARTTLS, with and without SNI) and SMTPS', async () => {
      assert.deepEqual(await served(), everywhere(a.fingerprint));
      const loaded = await untilEvent('tls_certificate_loaded', 1);
      assert.equal(loaded.fingerprint256, a.fingerprint);
    });

    it('refuses a plaintext client on the SMTPS port: no 220 banner, the connection is closed', async () => {
      const socket = net.connect({ port: ports.smtps, host: '127.0.0.1' });
      const received: Buffer[] = [];
      socket.on('data', (d: Buffer) => received.push(d));
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write('EHLO plaintext.client\r\n');
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
      assert.doesNotMatch(Buffer.concat(received).toString('latin1'), /^220/);
    });

    it('serves a renewed pair (renamed over the old files) without a restart, and logs it', async () => {
      replace(certFile, b.cert);
      replace(keyFile, b.key);
      await untilServed(b.fingerprint);
      const reloaded = events('tls_certificate_reloaded').find((e) => e.fingerprint256 === b.fingerprint);
      assert.ok(reloaded, 'tls_certificate_reloaded with the new fingerprint');
      assert.equal(reloaded.certFile, certFile);
      assert.match(String(reloaded.subject), /CN=mx\.reload\.test/);
      assert.ok(!Number.isNaN(Date.parse(String(reloaded.notAfter))), String(reloaded.notAfter));
      assert.doesNotMatch(mta.stdout.join('\n'), /PRIVATE KEY/);
    });

    it('keeps the current certificate while the key does not match, then takes the pair rewritten in place', async () => {
      const skippedBefore = events('tls_certificate_reload_skipped').length;
      replace(certFile, c.cert); // the key is still B's
      const skipped = await untilEvent('tls_certificate_reload_skipped', skippedBefore + 1);
      assert.match(String(skipped.reason), /does not match/);
      // The plugin has seen the mismatched pair: new handshakes still get B.
      assert.deepEqual(await served(), everywhere(b.fingerprint));
      assert.equal(mta.child.exitCode, null, 'the MTA keeps running');

      fs.writeFileSync(keyFile, c.key); // in place: same inode
      await untilServed(c.fingerprint);
    });
  },
);
