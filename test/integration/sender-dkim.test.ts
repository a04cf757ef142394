// DKIM in the sender (src/sender/dkim.ts): each message signed once, the key parsed once per key
// version, delivered by the engine to an SMTP sink, and the bytes the sink received verified by an
// independent verifier (Python's dkimpy, Debian python3-dkim) with the key record from the fake
// DNS, as test/integration/mta-outbound.test.ts verifies the Haraka path. The messages carry a
// line with a leading dot (dot-stuffing) and 8-bit UTF-8 text (BODY=8BITMIME), the two things
// the transport must give back byte for byte.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { generateDkimKeyPair } from '../../src/modules/domains/dkim-key';
import { DEFAULT_LIMITS } from '../../src/mta/destination-limits';
import { outboundGuardFromConfig } from '../../src/mail/address-guard';
import { ConnectionPool } from '../../src/sender/connection-pool';
import { deliver } from '../../src/sender/deliver';
import type { SenderDkimKey } from '../../src/sender/dkim';
import { DkimKeyCache, signMessage } from '../../src/sender/dkim';
import { resolveRoute } from '../../src/sender/route';
import { RFC5321_TIMEOUTS } from '../../src/sender/smtp-link';
import { createDnsResolver } from '../../src/shared/dns-resolver';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';

/** Python's dkimpy, an independent verifier; undefined when not installed. */
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

const DOMAIN = 'shop-dkim.test';
const SELECTOR = 'mr202612sender';
const KEY_NAME = `${SELECTOR}._domainkey.${DOMAIN}`;

function message(i: number): Buffer {
  return Buffer.from(
    [
      `From: Shop <hello@${DOMAIN}>`,
      'To: someone@dest-dkim.test',
      `Subject: Receipt ${i}`,
      `Message-ID: <${i}@${DOMAIN}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'Grüße aus dem Laden.',
      '.a line starting with a dot',
      '',
    ].join('\r\n'),
  );
}

describe('sender: DKIM-signed delivery, verified by dkimpy', () => {
  let dns: FakeDns;
  let sink: SmtpSink;
  let pool: ConnectionPool;
  let key: SenderDkimKey;
  let record: string;

  before(async () => {
    dns = await startDnsServer();
    sink = await startSmtpSink({ host: '127.0.0.61' });
    dns.set('dest-dkim.test', 'MX', [{ exchange: 'mx.dest-dkim.test', priority: 10 }]);
    dns.set('mx.dest-dkim.test', 'A', ['127.0.0.61']);
    const pair = await generateDkimKeyPair();
    record = `v=DKIM1; k=rsa; p=${pair.publicKey}`;
    dns.set(KEY_NAME, 'TXT', [record]);
    key = { domain: DOMAIN, selector: SELECTOR, privateKeyPem: pair.privateKeyPem, version: 'v1' };
    pool = new ConnectionPool({
      name: 'mail.sender.test',
      limits: () => DEFAULT_LIMITS,
      timeouts: { ...RFC5321_TIMEOUTS, connectMs: 5_000, greetingMs: 10_000 },
    });
  });

  after(async () => {
    pool.close();
    await sink.close();
    await dns.close();
  });

  it('signs each message once with the key parsed once, and the received bytes verify', async (t) => {
    const cache = new DkimKeyCache();
    const resolver = createDnsResolver({ servers: [{ host: dns.host, port: dns.port }] });
    const route = await resolveRoute('dest-dkim.test', {
      dns: resolver,
      guard: outboundGuardFromConfig({ outboundAllowPrivate: true }),
      path: { ipv6: false, port: sink.port },
    });
    for (let i = 0; i < 3; i++) {
      const signed = await signMessage(message(i), key, cache);
      assert.equal(signed.toString().match(/^DKIM-Signature:/gim)?.length, 1, 'one signature per message');
      const [result] = await deliver(
        route,
        { from: `bounce+em_${i}@bounce.${DOMAIN}`, to: ['someone@dest-dkim.test'] },
        signed,
        { pool },
      );
      assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
    }
    assert.equal(cache.parses, 1, 'the key is parsed once for its version');
    const received = await sink.waitForMessages(3);
    assert.equal(received[0]?.raw.toString('utf8').includes('Grüße'), true, '8-bit text arrives as sent');

    const published = await resolver.txt(KEY_NAME);
    assert.equal(published.status, 'found');
    const txt = published.status === 'found' ? (published.records[0] ?? '') : '';
    assert.equal(txt, record);
    if (DKIMPY_PYTHON === undefined) {
      assert.ok(process.env.CI !== 'true', 'python3-dkim must be installed in CI');
      t.diagnostic('python3-dkim is not installed: the dkimpy verification was skipped');
      return;
    }
    const python: string = DKIMPY_PYTHON;
    for (const got of received) {
      const verdict = spawnSync(python, ['-c', DKIMPY_VERIFY, KEY_NAME, txt], {
        input: got.raw,
        encoding: 'utf8',
      });
      assert.equal(`${verdict.stdout.trim()}${verdict.stderr.trim()}`, 'pass');
    }
    // A byte changed in transit breaks it: the verification is not a formality.
    const tampered = Buffer.from(received[0].raw.toString('utf8').replace('Receipt 0', 'Receipt 9'));
    const run = spawnSync(DKIMPY_PYTHON, ['-c', DKIMPY_VERIFY, KEY_NAME, txt], {
      input: tampered,
      encoding: 'utf8',
    });
    assert.equal(run.stdout.trim(), 'fail');
  });

  it('parses a rotated key anew and refuses an unusable one with the domain named', async () => {
    const cache = new DkimKeyCache();
    await signMessage(message(1), key, cache);
    await signMessage(message(2), key, cache);
    const rotated = await generateDkimKeyPair();
    const next = { ...key, privateKeyPem: rotated.privateKeyPem, version: 'v2' };
    const signed = await signMessage(message(3), next, cache);
    assert.equal(cache.parses, 2);
    assert.equal(cache.size, 1, 'the old version is dropped');
    const run =
      DKIMPY_PYTHON === undefined
        ? undefined
        : spawnSync(
            DKIMPY_PYTHON,
            ['-c', DKIMPY_VERIFY, KEY_NAME, `v=DKIM1; k=rsa; p=${rotated.publicKey}`],
            {
              input: signed,
              encoding: 'utf8',
            },
          );
    if (run !== undefined) assert.equal(run.stdout.trim(), 'pass', 'signed with the new key');
    await assert.rejects(
      signMessage(message(4), { ...key, privateKeyPem: 'not a key', version: 'v3' }, cache),
      /DKIM key of shop-dkim\.test unusable/,
    );
  });
});
