import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildReport } from '../../../../src/cli/doctor/doctor-report';
import { formatReport } from '../../../../src/cli/doctor/format-report';
import { evaluateTls } from '../../../../src/cli/doctor/tls-check';
import type { CertificateSummary, TlsPair } from '../../../../src/mta/tls-files';

describe('doctor: TLS certificate', () => {
  it('grades the TLS certificate: usable pair, expiry, MAIL_HOSTNAME, self-signed', () => {
    const now = Date.UTC(2026, 0, 1);
    const day = 24 * 3600 * 1000;
    const cert = (over: Partial<CertificateSummary> = {}): TlsPair => ({
      ok: true,
      keyPem: Buffer.alloc(0),
      certPem: Buffer.alloc(0),
      certificate: {
        subject: 'CN=mx.example.test',
        issuer: "C=US, O=Let's Encrypt, CN=R11",
        names: ['mx.example.test'],
        notBefore: new Date(now - 30 * day).toISOString(),
        notAfter: new Date(now + 60 * day).toISOString(),
        fingerprint256: 'AB:CD',
        serialNumber: '01',
        selfSigned: false,
        ...over,
      },
    });
    const configured = {
      source: 'configured' as const,
      certFile: '/etc/letsencrypt/live/mx/fullchain.pem',
      keyFile: '/etc/letsencrypt/live/mx/privkey.pem',
      mailHostname: 'mx.example.test',
      nowMs: now,
    };

    const good = evaluateTls({ ...configured, pair: cert() });
    assert.equal(good.status, 'ok');
    assert.match(good.summary, /fullchain\.pem for mx\.example\.test, valid until 2026-03-02/);
    assert.deepEqual(good.hints, []);
    assert.equal(good.details?.fingerprint256, 'AB:CD');

    const wildcard = evaluateTls({ ...configured, pair: cert({ names: ['*.example.test'] }) });
    assert.equal(wildcard.status, 'ok', 'a wildcard covers one label');

    const soon = evaluateTls({
      ...configured,
      pair: cert({ notAfter: new Date(now + 5 * day).toISOString() }),
    });
    assert.equal(soon.status, 'warn');
    assert.match(soon.summary, /expires in 5 days/);

    const expired = evaluateTls({
      ...configured,
      pair: cert({ notAfter: new Date(now - day).toISOString() }),
    });
    assert.equal(expired.status, 'fail');
    assert.match(expired.summary, /EXPIRED/);

    const otherName = evaluateTls({
      ...configured,
      pair: cert({ names: ['www.example.test', 'a.b.example.test'] }),
    });
    assert.equal(otherName.status, 'warn');
    assert.ok(otherName.hints.some((h) => h.includes('does not name MAIL_HOSTNAME mx.example.test')));

    const mismatch = evaluateTls({
      ...configured,
      pair: { ok: false, reason: 'the key does not match the certificate' },
    });
    assert.equal(mismatch.status, 'fail');
    assert.match(mismatch.summary, /does not match/);

    const self = {
      source: 'self-signed' as const,
      certFile: '/data/tls/cert.pem',
      keyFile: '/data/tls/key.pem',
      mailHostname: 'mx.example.test',
      nowMs: now,
    };
    const selfSigned = evaluateTls({ ...self, pair: cert({ selfSigned: true }) });
    assert.equal(selfSigned.status, 'ok');
    assert.ok(selfSigned.hints.some((h) => h.startsWith('Self-signed')));
    assert.ok(selfSigned.hints.some((h) => h.includes('TLS_CERT_FILE')));
    const renamedHost = evaluateTls({
      ...self,
      pair: cert({ selfSigned: true, names: ['old.example.test'] }),
    });
    assert.equal(renamedHost.status, 'ok');
    assert.ok(renamedHost.hints.some((h) => h.includes('delete /data/tls')));
    const notYet = evaluateTls({ ...self, pair: null });
    assert.equal(notYet.status, 'ok');
    assert.match(notYet.summary, /generated for mx\.example\.test at the first start/);
    // Hints of the TLS check are printed even when it is ok (self-signed is worth knowing).
    assert.ok(formatReport(buildReport(null, [selfSigned], now)).includes('→ Self-signed'));
  });
});
