import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  certificateCovers,
  checkTlsPair,
  describeCertificate,
  fileSignature,
  readTlsPair,
} from '../../../src/mta/tls-files';
import { makeSelfSignedCert } from '../../helpers/tls-cert';

describe('tls-files: pairs, summaries, signatures', () => {
  let dir: string;
  const file = (name: string): string => path.join(dir, name);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-tls-files-'));
    for (const [name, cn] of [
      ['a', 'mx.example.test'],
      ['b', 'other.example.test'],
    ] as const) {
      makeSelfSignedCert({
        dir,
        name,
        subject: `/O=Example/CN=${cn}`,
        altNames: [`DNS:${cn}`, 'DNS:*.Example.test', 'IP:192.0.2.1'],
        days: 10,
      });
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('accepts a matching pair and describes the certificate without key material', () => {
    const pair = readTlsPair(file('a.key'), file('a.crt'));
    assert.ok(pair.ok, JSON.stringify(pair));
    const c = pair.certificate;
    assert.equal(c.subject, 'O=Example, CN=mx.example.test');
    assert.deepEqual(c.names, ['mx.example.test', '*.example.test']);
    assert.equal(c.selfSigned, true);
    assert.equal(c.fingerprint256, new crypto.X509Certificate(fs.readFileSync(file('a.crt'))).fingerprint256);
    const days = (Date.parse(c.notAfter) - Date.now()) / 86_400_000;
    assert.ok(days > 9 && days <= 10, String(days));
    assert.doesNotMatch(JSON.stringify(c), /PRIVATE/);
  });

  it('refuses, with a reason and without throwing: mismatched, truncated, missing', () => {
    const mismatched = readTlsPair(file('b.key'), file('a.crt'));
    assert.deepEqual(mismatched, { ok: false, reason: 'the key does not match the certificate' });
    const cert = fs.readFileSync(file('a.crt'));
    const half = checkTlsPair(fs.readFileSync(file('a.key')), cert.subarray(0, cert.length >> 1));
    assert.equal(half.ok, false);
    assert.match(half.ok ? '' : half.reason, /^certificate unreadable/);
    const halfKey = checkTlsPair(Buffer.from('-----BEGIN PRIVATE KEY-----\nMIG'), cert);
    assert.match(halfKey.ok ? '' : halfKey.reason, /^key unreadable/);
    const missing = readTlsPair(file('nope.key'), file('a.crt'));
    assert.match(missing.ok ? '' : missing.reason, /nope\.key: ENOENT/);
  });

  it('matches host names as RFC 6125 does: exact, or a wildcard over one label', () => {
    const names = describeCertificate(new crypto.X509Certificate(fs.readFileSync(file('a.crt')))).names;
    assert.equal(certificateCovers(names, 'MX.example.test.'), true);
    assert.equal(certificateCovers(names, 'smtp.example.test'), true);
    assert.equal(certificateCovers(names, 'a.b.example.test'), false);
    assert.equal(certificateCovers(names, 'example.test'), false);
  });

  it('changes the file signature on a rename over the file and on a rewrite in place', () => {
    const target = file('live.pem');
    fs.copyFileSync(file('a.crt'), target);
    const first = fileSignature(target);
    assert.equal(fileSignature(target), first, 'stable while untouched');
    fs.copyFileSync(file('b.crt'), `${target}.tmp`);
    fs.renameSync(`${target}.tmp`, target);
    const renamed = fileSignature(target);
    assert.notEqual(renamed, first);
    fs.appendFileSync(target, '\n');
    assert.notEqual(fileSignature(target), renamed);
    assert.equal(fileSignature(file('absent.pem')), 'missing:ENOENT');
  });
});
