// The outbound side of the MTA for real: `node dist/src/mta/main.js` on 127.0.0.1 with a
// migrated database holding a VERIFIED domain (its key generated and sealed by the domains
// module itself) and email rows; messages injected with nodemailer and the worker's
// credential; delivery to an SMTP sink (SMTP_RELAY) or through the MX lookup (fake DNS).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import { taggedVerpAddress, verpAddress, verpKey } from '../../src/mail/verp-address';
import { injectCredential } from '../../src/modules/delivery/inject-credential';
import { injectMaxBytes } from '../../src/mta/size-limits';
import { newId } from '../../src/shared/ids';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import type { Fixture } from '../helpers/outbound-mta';
import {
  HOSTNAME,
  MAX_BYTES,
  SECRET_KEY,
  inject,
  insertEmail,
  mtaEnv,
  outcomes,
  prepareDatabase,
  stop,
  waitForOutcome,
} from '../helpers/outbound-mta';
import { startSmtpSink } from '../helpers/smtp-sink';
import type { MtaProcess } from '../helpers/mta-process';
import { findEvent, startMta } from '../helpers/mta-process';
import { SmtpClient } from '../helpers/smtp-client';

/** mailauth's resolver, shaped like dns.promises.resolve, asking the fake DNS only. */
function fakeDnsResolver(server: FakeDns): DNSResolver {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>;
}

/** Python's dkimpy (Debian python3-dkim), an independent verifier; undefined when not installed. */
const DKIMPY_PYTHON = ['python3', '/usr/bin/python3'].find(
  (python) => spawnSync(python, ['-c', 'import dkim'], { stdio: 'ignore' }).status === 0,
);

const DKIMPY_VERIFY = `
import sys, dkim
name, record = sys.argv[1].encode(), sys.argv[2].encode()
def dnsfunc(qname, timeout=5):
    return record if qname.rstrip(b'.').lower() == name else b''
print('pass' if dkim.verify(sys.stdin.buffer.read(), dnsfunc=dnsfunc) else 'fail')
`;

/** dkimpy's verdict on `raw`, given the key record published in the fake DNS. */
async function dkimpyVerify(python: string, server: FakeDns, raw: Buffer, keyName: string): Promise<string> {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  const record = (await resolver.resolveTxt(keyName)).map((chunks) => chunks.join(''))[0] ?? '';
  const run = spawnSync(python, ['-c', DKIMPY_VERIFY, keyName, record], { input: raw, encoding: 'utf8' });
  return `${run.stdout.trim()}${run.stderr.trim()}`;
}

/** Log lines reach us through the mta process, possibly after the SMTP reply they explain. */
async function waitForEvent(mta: MtaProcess, event: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = findEvent(mta.stdout, event);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`event ${event} not logged`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('mta outbound through SMTP_RELAY', () => {
  const domain = 'shop-outbound.com';
  let dnsServer: FakeDns;
  let sink: SmtpSink;
  let f: Fixture;
  let env: Record<string, string>;
  let mta: MtaProcess;
  let injectPort: number;

  before(async () => {
    dnsServer = await startDnsServer();
    sink = await startSmtpSink();
    f = await prepareDatabase(dnsServer, domain);
    env = await mtaEnv(f, dnsServer, sink);
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await sink.close();
    await dnsServer.close();
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });

  it('offers AUTH PLAIN and the MIME-sized SIZE on the injection listener only', async () => {
    const { client: mx } = await SmtpClient.connect(Number(env.SMTP_PORT));
    const mxEhlo = await mx.command('EHLO client.test');
    assert.ok(mxEhlo.lines.includes(`SIZE ${MAX_BYTES}`), mxEhlo.raw);
    assert.ok(!mxEhlo.lines.some((l) => l.startsWith('AUTH')), mxEhlo.raw);
    assert.ok((await mx.command('AUTH PLAIN AGZvbwBiYXI=')).code >= 500, 'no AUTH on the MX');
    const tooBig = await mx.command(`MAIL FROM:<a@example.org> SIZE=${MAX_BYTES + 1}`);
    assert.match(tooBig.raw, /^552 5\.3\.4 /, 'RFC 1870: 552 for a declared SIZE over the MX limit');
    mx.close();

    const { client } = await SmtpClient.connect(injectPort);
    const ehlo = await client.command('EHLO worker.test');
    assert.ok(ehlo.lines.includes('AUTH PLAIN'), ehlo.raw);
    assert.ok(ehlo.lines.includes(`SIZE ${injectMaxBytes(MAX_BYTES)}`), ehlo.raw);
    client.close();
  });

  it('refuses unauthenticated injection (530 5.7.0) and a wrong password (535)', async () => {
    const emailId = await insertEmail(f);
    await assert.rejects(inject(injectPort, { emailId, domain, to: ['a@dest.test'], auth: false }), (err) => {
      assert.equal((err as { responseCode?: number }).responseCode, 530);
      assert.match(String((err as { response?: string }).response), /^530 5\.7\.0 /);
      return true;
    });
    const { client } = await SmtpClient.connect(injectPort);
    await client.command('EHLO worker.test');
    const wrong = Buffer.from('\0mailroom-worker\0not-the-password').toString('base64');
    assert.equal((await client.command(`AUTH PLAIN ${wrong}`)).code, 535);
    assert.equal((await client.command('MAIL FROM:<x@y.test>')).code, 530);
    client.close();
  });

  it('relays only the VERP sender of an email row being sent, from its own domain', async () => {
    const { client } = await SmtpClient.connect(injectPort);
    await client.command('EHLO worker.test');
    const { user, pass } = injectCredential(SECRET_KEY);
    assert.equal(
      (await client.command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`).toString('base64')}`)).code,
      235,
    );
    const notVerp = await client.command(`MAIL FROM:<app@${domain}>`);
    assert.match(notVerp.raw, /^550 5\.7\.1 /);
    // Issue 28 item 6: the untagged return path relays only for a message being sent
    // now, from its own domain; a tag, when present, must still verify.
    const sending = await insertEmail(f);
    const done = await insertEmail(f);
    await f.db.updateTable('emails').set({ status: 'delivered' }).where('id', '=', done).execute();
    const mail = async (sender: string): Promise<string> => {
      const reply = (await client.command(`MAIL FROM:<${sender}>`)).raw;
      await client.command('RSET');
      return reply;
    };
    assert.match(await mail(verpAddress(sending, domain)), /^250 /);
    assert.match(await mail(taggedVerpAddress(sending, domain, verpKey(SECRET_KEY))), /^250 /);
    for (const sender of [
      verpAddress(newId('email'), domain), // no such message
      verpAddress(sending, 'foreign.example.net'), // a real id, another domain
      verpAddress(done, domain), // not being sent
      taggedVerpAddress(sending, domain, verpKey('another-secret-key-0123456789abcdefghij')), // wrong tag
    ]) {
      assert.match(await mail(sender), /^550 5\.7\.1 /, sender);
    }
    client.close();
    // A VERP address whose email row does not exist: refused at the end of data, never signed or sent.
    await assert.rejects(
      inject(injectPort, { emailId: newId('email'), domain, to: ['a@dest.test'] }),
      (err) => {
        assert.match(String((err as { response?: string }).response), /^550 5\.7\.1 /);
        return true;
      },
    );
  });

  it('defers (451) a message whose DKIM key cannot be unsealed: nothing goes out unsigned', async () => {
    const domainId = newId('dom');
    const now = new Date().toISOString();
    const broken = await f.db
      .selectFrom('domains')
      .selectAll()
      .where('id', '=', f.domainId)
      .executeTakeFirstOrThrow();
    // The key of another row: sealed for `dkim:<that id>`, so it does not open for this one.
    await f.db
      .insertInto('domains')
      .values({ ...broken, id: domainId, domain: 'copied-key.com', created_at: now, updated_at: now })
      .execute();
    const emailId = await insertEmail(f, domainId);
    await assert.rejects(
      inject(injectPort, { emailId, domain: 'copied-key.com', to: ['a@dest.test'] }),
      (err) => {
        assert.match(String((err as { response?: string }).response), /^451 4\.3\.0 /);
        return true;
      },
    );
    assert.equal(sink.rcptAttempts('a@dest.test'), 0);
    await waitForEvent(mta, 'dkim_key_unavailable');
  });

  it('delivers a DKIM-signed message with the VERP sender; 5xx bounces, 4xx defers, retries run out', async (t) => {
    sink.setRecipientBehaviour('reject@dest.test', { code: 550, message: '5.1.1 No such user here' });
    sink.setRecipientBehaviour('later@dest.test', (n) =>
      n === 1 ? { code: 451, message: '4.7.1 Greylisted, try again' } : 'accept',
    );
    sink.setRecipientBehaviour('never@dest.test', { code: 451, message: '4.3.0 Mailbox busy' });
    const emailId = await insertEmail(f);
    const started = Date.now();
    const accepted = await inject(injectPort, {
      emailId,
      domain,
      to: ['ok@dest.test', 'reject@dest.test'],
      cc: ['later@dest.test'],
      bcc: ['never@dest.test'],
    });
    assert.match(accepted.response, /^250 Message Queued/);

    const [message] = await sink.waitForMessages(1);
    assert.ok(message);
    assert.equal(message.mailFrom, `bounce+${emailId}@bounce.${domain}`);
    assert.deepEqual(message.rcptTo, ['ok@dest.test']);
    assert.equal(message.secure, true, 'opportunistic STARTTLS with the sink’s self-signed certificate');
    assert.equal(message.helo, HOSTNAME);
    const raw = message.raw.toString('latin1');
    assert.doesNotMatch(raw, /^bcc:/im);
    const signature = /^DKIM-Signature:(.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
    assert.match(signature, /a=rsa-sha256;/);
    assert.match(signature, /c=relaxed\/relaxed;/);
    assert.match(signature, new RegExp(`d=${domain.replaceAll('.', '\\.')};`));
    const signed = (/h=([^;]+);/.exec(signature.replace(/\s+/g, ''))?.[1] ?? '').toLowerCase().split(':');
    for (const h of ['from', 'to', 'cc', 'subject', 'date', 'message-id', 'mime-version', 'content-type']) {
      assert.ok(signed.includes(h), `${h} signed: ${signed.join(':')}`);
    }
    const auth = await authenticate(message.raw, {
      ip: '127.0.0.1',
      helo: message.helo,
      sender: message.mailFrom,
      mta: 'sink.test',
      resolver: fakeDnsResolver(dnsServer),
    });
    const dkim = auth.dkim.results[0];
    assert.equal(dkim?.status.result, 'pass', JSON.stringify(auth.dkim.results));
    assert.equal(dkim.signingDomain, domain);
    const selector = /s=([^;\s]+)/.exec(signature)?.[1] ?? '';
    if (DKIMPY_PYTHON === undefined) {
      // CI installs it (.ci/run): there, a missing verifier is a failure, not a skip.
      assert.ok(process.env.CI !== 'true', 'python3-dkim must be installed in CI');
      t.diagnostic('python3-dkim is not installed: the dkimpy verification was skipped');
    } else {
      const verdict = await dkimpyVerify(
        DKIMPY_PYTHON,
        dnsServer,
        message.raw,
        `${selector}._domainkey.${domain}`,
      );
      assert.equal(verdict, 'pass', 'dkimpy verifies the signature too');
    }
    // Nothing about the internal hand-off beyond its Received line.
    assert.doesNotMatch(raw, /^Authentication-Results:/im);
    assert.doesNotMatch(raw, /Haraka outbound/);

    const delivered = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'ok@dest.test');
    assert.equal(delivered.outcome, 'delivered');
    assert.equal(delivered.smtpCode, 250);
    assert.equal(delivered.response, 'OK: message queued');
    assert.equal(delivered.attempt, 1);

    const bounced = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'reject@dest.test');
    assert.equal(bounced.outcome, 'bounced');
    assert.equal(bounced.smtpCode, 550);
    assert.equal(bounced.enhancedStatus, '5.1.1');
    assert.equal(bounced.response, 'No such user here');

    const deferred = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'later@dest.test');
    assert.deepEqual(
      [deferred.outcome, deferred.smtpCode, deferred.enhancedStatus, deferred.attempt],
      ['deferred', 451, '4.7.1', 1],
    );
    const later = await waitForOutcome(
      f.db,
      emailId,
      (p) => p.recipient === 'later@dest.test' && p.outcome === 'delivered',
    );
    assert.equal(later.attempt, 2);
    assert.ok(Date.now() - started >= 4_000, 'retried after the first interval (5 s)');

    const failed = await waitForOutcome(
      f.db,
      emailId,
      (p) => p.recipient === 'never@dest.test' && p.outcome === 'failed',
      25_000,
    );
    assert.deepEqual(
      [failed.smtpCode, failed.enhancedStatus, failed.response, failed.attempt],
      [451, '4.3.0', 'Mailbox busy', 3],
    );
    const never = (await outcomes(f.db, emailId)).filter((p) => p.recipient === 'never@dest.test');
    assert.deepEqual(
      never.map((p) => `${p.outcome}:${p.attempt}`),
      ['deferred:1', 'deferred:2', 'failed:3'],
    );
    assert.equal(sink.rcptAttempts('never@dest.test'), 3);
    assert.equal(sink.rcptAttempts('reject@dest.test'), 1, 'a 5xx is not retried');
    assert.equal(sink.messages.length, 2, 'ok@ and later@ each received it once');
    await waitForEvent(mta, 'dkim_signed');
    await waitForEvent(mta, 'mta_outcome_bounced');
  });

  it('keeps a queued message through a SIGKILL of the mta process and delivers it after the restart', async () => {
    sink.setRecipientBehaviour('crash@dest.test', { code: 451, message: '4.4.1 Not now' });
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['crash@dest.test'] });
    await waitForOutcome(f.db, emailId, (p) => p.outcome === 'deferred');

    const harakaPid = findEvent(mta.stdout, 'mta_starting')?.harakaPid;
    assert.equal(typeof harakaPid, 'number');
    mta.child.kill('SIGKILL');
    await mta.exited;
    // Haraka follows its parent out (mailroom-process); the restarted one needs the ports.
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && isAlive(harakaPid as number)) await new Promise((r) => setTimeout(r, 50));
    assert.equal(isAlive(harakaPid as number), false, 'Haraka exited with the mta process');

    sink.setRecipientBehaviour('crash@dest.test', undefined);
    mta = await startMta(env);
    const delivered = await waitForOutcome(f.db, emailId, (p) => p.outcome === 'delivered');
    assert.equal(delivered.attempt, 2, 'the restarted Haraka read the attempt count from the queue file');
    assert.equal(sink.messages.filter((m) => m.rcptTo.includes('crash@dest.test')).length, 1);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('mta outbound through the recipient domain’s MX', () => {
  const domain = 'shop-mx.com';
  let dnsServer: FakeDns;
  let f: Fixture;
  let mta: MtaProcess;
  let injectPort: number;

  before(async () => {
    dnsServer = await startDnsServer();
    f = await prepareDatabase(dnsServer, domain);
    // Haraka delivers to an MX on port 25 only; 127.0.0.1 is ours, so Haraka skips it
    // (local_mx_ok=false) and defers: the lookups themselves are what is observed here.
    dnsServer.set('mx-dest.test', 'MX', [{ exchange: 'mail.mx-dest.test', priority: 10 }]);
    dnsServer.set('mail.mx-dest.test', 'A', ['127.0.0.1']);
    // Loopback is refused by the outbound guard unless opened (test/security/private-addresses.test.ts).
    const env: Record<string, string> = {
      ...(await mtaEnv(f, dnsServer, undefined)),
      OUTBOUND_ALLOW_PRIVATE: 'true',
    };
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await dnsServer.close();
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });

  it('looks the MX up through DNS_SERVERS; no such domain hard-bounces at once, an unusable MX defers', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['someone@mx-dest.test', 'nobody@nxdomain-dest.test'] });

    const bounced = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'nobody@nxdomain-dest.test');
    assert.equal(bounced.outcome, 'bounced');
    assert.equal(bounced.smtpCode, null);
    assert.equal(bounced.enhancedStatus, '5.1.2');
    assert.match(bounced.response, /nxdomain-dest\.test/);

    const deferred = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'someone@mx-dest.test');
    assert.equal(deferred.outcome, 'deferred');
    assert.equal(deferred.smtpCode, null);
    assert.match(deferred.response, /Tried all MXs/);

    const asked = dnsServer.queries.map((q) => `${q.type} ${q.name}`);
    for (const q of ['MX mx-dest.test', 'A mail.mx-dest.test', 'MX nxdomain-dest.test']) {
      assert.ok(asked.includes(q), `${q} in ${asked.join(', ')}`);
    }
    // No lookup of our public address through a STUN server (haraka-net-utils' default).
    assert.deepEqual(
      mta.stdout.filter((l) => l.includes('"stream":"stderr"') || /stun/i.test(l)),
      [],
    );
  });
});
