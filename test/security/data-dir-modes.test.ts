// Issue 17, finding 10 (files): `mail.db` was 0644 under the usual umask 022. Every
// file under DATA_DIR must be 0600 and every directory 0700 whatever the umask: the
// database with its -wal/-shm, the secret key, raw inbound mail, the TLS key, the
// MTA's queue; and what an earlier version left behind is tightened at start.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { restrictDataDir, restrictExistingFiles } from '../../src/shared/private-files';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { compose, sendRaw, setReceiving, waitForInbound } from '../helpers/inbound-mail';

/** Every path under `dir` whose mode gives anything to group or others. */
function exposed(dir: string): string[] {
  const out: string[] = [];
  const visit = (p: string): void => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0)
      out.push(`${path.relative(dir, p) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const e of fs.readdirSync(p)) visit(path.join(p, e));
  };
  visit(dir);
  return out;
}

function allFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe('restrictExistingFiles', () => {
  it('clears group and other bits, keeps the owner’s, does not follow links out of the tree', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'modes-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'modes-outside-'));
    try {
      fs.mkdirSync(path.join(root, 'sub'), { mode: 0o755 });
      fs.chmodSync(path.join(root, 'sub'), 0o755);
      fs.writeFileSync(path.join(root, 'sub', 'a'), 'x');
      fs.chmodSync(path.join(root, 'sub', 'a'), 0o644);
      fs.writeFileSync(path.join(root, 'run'), 'x');
      fs.chmodSync(path.join(root, 'run'), 0o755);
      fs.writeFileSync(path.join(outside, 'keep'), 'x');
      fs.chmodSync(path.join(outside, 'keep'), 0o644);
      fs.symlinkSync(outside, path.join(root, 'link'));
      restrictExistingFiles(root);
      assert.equal(fs.statSync(path.join(root, 'sub')).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(root, 'sub', 'a')).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.join(root, 'run')).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(outside, 'keep')).mode & 0o777, 0o644);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('restrictDataDir', () => {
  it('walks the whole tree once, then only DATA_DIR’s own level (the marker)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'modes-marker-'));
    try {
      fs.mkdirSync(path.join(root, 'inbound'));
      const deep = path.join(root, 'inbound', 'old.eml');
      const top = path.join(root, 'mail.db');
      fs.writeFileSync(deep, 'x');
      fs.writeFileSync(top, 'x');
      fs.chmodSync(deep, 0o644);
      fs.chmodSync(top, 0o644);
      restrictDataDir(root);
      assert.equal(fs.statSync(deep).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.join(root, '.private-modes')).mode & 0o777, 0o600);
      // After the first pass, deep entries are no longer visited; the top level still is.
      fs.chmodSync(deep, 0o644);
      fs.chmodSync(top, 0o644);
      restrictDataDir(root);
      assert.equal(fs.statSync(top).mode & 0o777, 0o600);
      assert.equal(fs.statSync(deep).mode & 0o777, 0o644);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('DATA_DIR is private under umask 022', () => {
  const DOMAIN = 'modes-sec.example.com';
  let dns: FakeDns;
  let sink: SmtpSink;
  let app: Appliance;
  let dataDir: string;
  let previousMask: number;

  before(async () => {
    // The appliance inherits this process's umask: the usual permissive one.
    previousMask = process.umask(0o022);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-modes-'));
    fs.chmodSync(dataDir, 0o755);
    // What an earlier version left: an (empty, hence new) database and a raw-store file, world-readable.
    fs.writeFileSync(path.join(dataDir, 'mail.db'), '');
    fs.chmodSync(path.join(dataDir, 'mail.db'), 0o644);
    fs.mkdirSync(path.join(dataDir, 'legacy'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'legacy', 'old.eml'), 'x');
    fs.chmodSync(path.join(dataDir, 'legacy', 'old.eml'), 0o644);

    dns = await startDnsServer();
    sink = await startSmtpSink();
    // The relay defers: the message stays in the MTA's queue, whose files are then checked too.
    sink.setDataBehaviour({ code: 451, message: '4.3.0 try later' });
    // SQLite only: among the files whose modes are checked are mail.db and its WAL.
    app = await startAppliance({
      backend: 'sqlite',
      dataDir,
      // The deprecated MTA path, whose queue files (mode 0600 under umask 022) are among what
      // this checks; the worker's sender writes no queue file. This goes with that path.
      env: {
        DNS_SERVERS: dns.address,
        SMTP_RELAY: sink.address,
        MTA_RETRY_INTERVALS: '30,30',
        OUTBOUND_SENDER: 'haraka',
      },
    });
  });
  after(async () => {
    await app.stop();
    await sink.close();
    await dns.close();
    process.umask(previousMask);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('has no file or directory open to group or others, while running and after a stop', async () => {
    const account = await app.api.registerWithKey();
    const domain = await addVerifiedDomain(app, dns, account.token, DOMAIN);
    await setReceiving(app, account.token, domain.id, { receiveEnabled: true });
    const sent = await app.api.post('/v1/emails', {
      token: account.apiKey,
      body: { from: `app@${DOMAIN}`, to: 'to@example.org', subject: 'queued', text: 'x' },
    });
    assert.equal(sent.status, 202, sent.text);
    // Inbound raw mail (the MX view reloads within seconds).
    const raw = await compose({ from: 'a@example.org', to: `x@inbox.${DOMAIN}`, subject: 'in', text: 'x' });
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await sendRaw(app, raw, { from: 'a@example.org', to: [`x@inbox.${DOMAIN}`] });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    await waitForInbound(app, account.token, (m) => m.subject === 'in');
    // The relay deferred it: the message waits in the MTA's queue.
    const inQueue = () => allFiles(dataDir).some((f) => f.startsWith(`mta-queue${path.sep}`));
    const waitUntil = Date.now() + 20_000;
    while (!inQueue() && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 200));
    assert.ok(inQueue(), allFiles(dataDir).join(', '));

    const files = allFiles(dataDir);
    for (const expected of ['mail.db', 'mail.db-wal', 'secret.key']) {
      assert.ok(files.includes(expected), `${expected} in ${files.join(', ')}`);
    }
    assert.ok(
      files.some((f) => f.endsWith('.pem')),
      `a TLS key in ${files.join(', ')}`,
    );
    assert.deepEqual(exposed(dataDir), [], files.join(', '));

    await app.stop();
    assert.deepEqual(exposed(dataDir), []);
  });
});
