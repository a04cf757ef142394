import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import type { Listener } from '../../../src/cli/backup';
import type { CheckResult, DoctorReport } from '../../../src/cli/doctor';
import {
  buildReport,
  evaluateClock,
  evaluateDataDirMode,
  evaluateDisk,
  evaluatePort,
  evaluateReverseDns,
  evaluateSecretFile,
  evaluateTls,
  formatReport,
  isPublicIp,
  portState,
  probeOutbound,
  probeSmtps,
  reverseName,
  runDoctor,
  worst,
} from '../../../src/cli/doctor';
import type { CertificateSummary, TlsPair } from '../../../src/mta/tls-files';
import type { FakeDns } from '../../helpers/dns-server';
import { startDnsServer } from '../../helpers/dns-server';
import { freePort, freePorts } from '../../helpers/free-port';
import type { SmtpSink } from '../../helpers/smtp-sink';
import { startSmtpSink } from '../../helpers/smtp-sink';
import { makeSelfSignedCert } from '../../helpers/tls-cert';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

/**
 * A test peer's socket: read (else its end is never seen and server.close() waits
 * forever), and ignore the resets our probes cause by hanging up at once.
 */
function peer(socket: net.Socket): net.Socket {
  return socket.on('error', () => undefined).resume();
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if (server instanceof http.Server) server.closeAllConnections();
  });
}

const byId = (report: DoctorReport, id: string): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  assert.ok(found, `no check ${id}`);
  return found;
};

describe('doctor: pure parts', () => {
  it('tells public addresses from private, loopback, link-local and CGNAT ones', () => {
    for (const ip of ['203.0.113.7', '8.8.8.8', '2001:db8::1', '::ffff:198.51.100.2'])
      assert.equal(isPublicIp(ip), true, ip);
    for (const ip of ['10.1.2.3', '172.20.0.1', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1'])
      assert.equal(isPublicIp(ip), false, ip);
    for (const ip of ['::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', 'not-an-ip'])
      assert.equal(isPublicIp(ip), false, ip);
  });

  it('builds reverse names for IPv4 and IPv6', () => {
    assert.equal(reverseName('203.0.113.7'), '7.113.0.203.in-addr.arpa');
    assert.equal(
      reverseName('2001:db8::1'),
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
  });

  it('grades free disk space', () => {
    assert.equal(evaluateDisk(100 * MiB, 10 * GiB).status, 'fail');
    assert.equal(evaluateDisk(1 * GiB, 100 * GiB).status, 'warn');
    assert.equal(evaluateDisk(5 * GiB, 100 * GiB).status, 'warn', 'under 10 %');
    assert.equal(evaluateDisk(50 * GiB, 100 * GiB, 500).status, 'warn', 'inodes');
    const ok = evaluateDisk(50 * GiB, 100 * GiB, 1_000_000);
    assert.equal(ok.status, 'ok');
    assert.equal(ok.summary, '50.0 GiB free of 100.0 GiB (50 %)');
  });

  it('flags a DATA_DIR others can read, or owned by someone else', () => {
    assert.equal(evaluateDataDirMode('/data', 0o40700, 1000, 1000).status, 'ok');
    const open = evaluateDataDirMode('/data', 0o40755, 1000, 1000);
    assert.equal(open.status, 'warn');
    assert.deepEqual(open.hints, ['chmod 700 /data']);
    const foreign = evaluateDataDirMode('/data', 0o40700, 0, 1000);
    assert.equal(foreign.status, 'warn');
    assert.match(foreign.hints[0] ?? '', /chown -R 1000 \/data/);
  });

  it('wants secret.key private and long enough', () => {
    assert.equal(evaluateSecretFile('/d/secret.key', null, null).status, 'warn');
    const open = evaluateSecretFile('/d/secret.key', { mode: 0o100644 }, 43);
    assert.equal(open.status, 'fail');
    assert.match(open.summary, /0644/);
    assert.match(open.hints[0] ?? '', /chmod 600/);
    assert.equal(evaluateSecretFile('/d/secret.key', { mode: 0o100600 }, 10).status, 'fail');
    assert.equal(evaluateSecretFile('/d/secret.key', { mode: 0o100600 }, 43).status, 'ok');
  });

  it('explains each port state', () => {
    const l: Listener = { env: 'SMTP_PORT', host: '0.0.0.0', port: 25, kind: 'smtp' };
    assert.equal(evaluatePort(l, { state: 'bindable' }, 1000).status, 'ok');
    assert.match(evaluatePort(l, { state: 'ours', detail: 'x' }, 1000).summary, /served by Mailroom/);
    assert.equal(evaluatePort(l, { state: 'foreign', detail: 'postfix' }, 1000).status, 'fail');
    const denied = evaluatePort(l, { state: 'denied', code: 'EACCES' }, 1000);
    assert.equal(denied.status, 'fail');
    assert.match(denied.hints[0] ?? '', /cap_net_bind_service/);
    assert.match(
      evaluatePort(l, { state: 'denied', code: 'EADDRNOTAVAIL' }, 1000).hints[0] ?? '',
      /BIND_ADDRESS/,
    );
    assert.equal(evaluatePort(l, { state: 'bindable' }, 1000).id, 'port_smtp_port');
  });

  it('compares reverse DNS with MAIL_HOSTNAME', () => {
    const confirmed = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: ['203.0.113.7'],
      local: ['203.0.113.7'],
      ptr: [{ ip: '203.0.113.7', names: ['MX.example.test.'] }],
    });
    assert.equal(confirmed.status, 'ok');
    assert.match(confirmed.summary, /forward-confirmed/);

    const wrong = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: ['203.0.113.7'],
      local: [],
      ptr: [{ ip: '203.0.113.7', names: ['host-7.provider.test'] }],
    });
    assert.equal(wrong.status, 'warn');
    assert.match(wrong.hints.join(' '), /Set the PTR of 203\.0\.113\.7 to mx\.example\.test/);

    const none = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: [],
      local: ['198.51.100.9'],
      ptr: [{ ip: '198.51.100.9', names: [], problem: 'nxdomain' }],
    });
    assert.equal(none.status, 'warn');
    assert.match(none.hints.join(' '), /Publish an A/);
    assert.match(none.hints.join(' '), /hosting provider/);

    const nat = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: ['203.0.113.7'],
      local: ['198.51.100.9'],
      ptr: [
        { ip: '203.0.113.7', names: ['mx.example.test'] },
        { ip: '198.51.100.9', names: ['mx.example.test'] },
      ],
    });
    assert.equal(nat.status, 'warn');
    assert.match(nat.hints.join(' '), /--public-ip/);
  });

  it('checks the clock for plausibility and against a reference', () => {
    const floor = Date.UTC(2025, 0, 1);
    const now = Date.UTC(2025, 5, 1);
    assert.equal(evaluateClock({ nowMs: Date.UTC(1970, 0, 2), floorMs: floor }).status, 'fail');
    assert.equal(evaluateClock({ nowMs: Date.UTC(2150, 0, 1), floorMs: floor }).status, 'fail');
    assert.equal(evaluateClock({ nowMs: now, floorMs: floor }).status, 'ok');
    const ref = (skewS: number): { source: string; dateMs: number } => ({
      source: 'time.test',
      dateMs: now - skewS * 1000,
    });
    assert.equal(evaluateClock({ nowMs: now, floorMs: floor, reference: ref(2) }).status, 'ok');
    assert.equal(evaluateClock({ nowMs: now, floorMs: floor, reference: ref(-60) }).status, 'warn');
    const far = evaluateClock({ nowMs: now, floorMs: floor, reference: ref(600) });
    assert.equal(far.status, 'fail');
    assert.match(far.summary, /600 s ahead of time\.test/);
    assert.equal(
      evaluateClock({ nowMs: now, floorMs: floor, reference: { source: 'x', error: 'timeout' } }).status,
      'warn',
    );
  });

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

  it('formats a report and fails only on failures', () => {
    const checks: CheckResult[] = [
      { id: 'a', title: 'Alpha', status: 'ok', summary: 'fine', hints: [] },
      { id: 'b', title: 'Beta', status: 'warn', summary: 'hmm', hints: ['do this'] },
    ];
    const warnOnly = buildReport('/data', checks, Date.UTC(2025, 0, 2));
    assert.equal(warnOnly.exitCode, 0);
    const text = formatReport(warnOnly);
    assert.match(text, /^Mailroom doctor, 2025-01-02T00:00:00\.000Z \(DATA_DIR \/data\)/);
    assert.ok(text.includes('\n  ok    Alpha       fine\n'), text);
    assert.ok(text.includes('\n  WARN  Beta        hmm\n                    → do this\n'), text);
    assert.match(text, /1 ok, 1 warning, 0 failures\n$/);
    const failed = buildReport(
      null,
      [...checks, { id: 'c', title: 'C', status: 'fail', summary: 'x', hints: [] }],
      0,
    );
    assert.equal(failed.exitCode, 1);
    assert.equal(worst(['ok', 'skip', 'warn']), 'warn');
  });
});

describe('doctor: network checks against local peers', () => {
  let dnsServer: FakeDns;
  let sink: SmtpSink;
  let silent: net.Server;
  let silentPort: number;
  let clock: http.Server;
  let clockPort: number;
  let dataDir: string;

  before(async () => {
    dnsServer = await startDnsServer();
    sink = await startSmtpSink({ name: 'mx.remote.test' });
    silent = net.createServer((s) => peer(s)); // accepts, never greets
    silentPort = await listen(silent);
    clock = http.createServer((_req, res) => {
      // 10 minutes behind us: the clock check must fail.
      res.setHeader('date', new Date(Date.now() - 600_000).toUTCString());
      res.end();
    });
    clockPort = await listen(clock);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-doctor-'));
  });
  after(async () => {
    await Promise.all([dnsServer.close(), sink.close(), close(silent), close(clock)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('tells a free port, a foreign listener and our own listeners apart', async () => {
    const port = await freePort();
    const l = (p: number, kind: 'http' | 'smtp'): Listener => ({
      env: 'PORT',
      host: '127.0.0.1',
      port: p,
      kind,
    });
    assert.deepEqual(await portState(l(port, 'http'), 'mx.test'), { state: 'bindable' });

    const other = net.createServer((s) => peer(s).end('hello\r\n'));
    const otherPort = await listen(other);
    const health = http.createServer((_req, res) => res.end(JSON.stringify({ status: 'ok' })));
    const healthPort = await listen(health);
    const smtp = net.createServer((s) => peer(s).end('220 MX.test ESMTP ready\r\n'));
    const smtpPort = await listen(smtp);
    try {
      assert.equal((await portState(l(otherPort, 'http'), 'mx.test', 500)).state, 'foreign');
      assert.equal((await portState(l(otherPort, 'smtp'), 'mx.test', 500)).state, 'foreign');
      assert.equal((await portState(l(healthPort, 'http'), 'mx.test', 500)).state, 'ours');
      assert.equal((await portState(l(smtpPort, 'smtp'), 'mx.test', 500)).state, 'ours');
      assert.equal((await portState(l(smtpPort, 'smtp'), 'other.test', 500)).state, 'foreign');
    } finally {
      await Promise.all([close(other), close(health), close(smtp)]);
    }
  });

  it('probes outbound SMTP with bounded timeouts: greeting, silence, refusal', async () => {
    const ok = await probeOutbound('127.0.0.1', sink.port, 2000);
    assert.equal(ok.ok, true);
    assert.match(ok.ok ? ok.banner : '', /^220 mx\.remote\.test/);

    let started = Date.now();
    const quiet = await probeOutbound('127.0.0.1', silentPort, 300);
    assert.deepEqual(quiet.ok ? null : quiet.stage, 'greeting');
    assert.ok(Date.now() - started < 2000, 'silence is bounded');

    const closedPort = await freePort();
    started = Date.now();
    const refused = await probeOutbound('127.0.0.1', closedPort, 300);
    assert.equal(refused.ok ? null : refused.error, 'ECONNREFUSED');
    assert.ok(Date.now() - started < 2000);
  });

  it('runs every check through DNS_SERVERS and local peers', async () => {
    dnsServer.set('mx.example.test', 'A', ['203.0.113.7']);
    dnsServer.set('7.113.0.203.in-addr.arpa', 'PTR', ['mx.example.test']);
    dnsServer.set('9.100.51.198.in-addr.arpa', 'PTR', ['host-9.provider.test']);
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${'s'.repeat(43)}\n`, { mode: 0o600 });
    fs.chmodSync(dataDir, 0o700);
    const ports = await freePorts(5);
    const env = {
      DATA_DIR: dataDir,
      PORT: String(ports[0]),
      WORKER_PORT: String(ports[1]),
      SMTP_PORT: String(ports[2]),
      SUBMISSION_PORT: String(ports[3]),
      MTA_INJECT_PORT: String(ports[4]),
      BIND_ADDRESS: '127.0.0.1',
      MAIL_HOSTNAME: 'mx.example.test',
      BASE_URL: 'https://mail.example.test',
      INTERNAL_API_TOKEN: 'internal-token-0123456789',
      DNS_SERVERS: dnsServer.address,
    };
    const report = await runDoctor({
      env,
      outboundProbe: { host: '127.0.0.1', port: sink.port },
      outboundTimeoutMs: 2000,
      dnsTimeoutMs: 500,
      interfaceAddresses: () => [],
      publicIps: ['198.51.100.9'],
      clockUrl: `http://127.0.0.1:${clockPort}/`,
    });
    assert.equal(byId(report, 'config').status, 'ok');
    assert.equal(byId(report, 'data_dir').status, 'ok');
    assert.equal(byId(report, 'secret_key').status, 'ok');
    for (const id of [
      'port_port',
      'port_worker_port',
      'port_smtp_port',
      'port_submission_port',
      'port_mta_inject_port',
    ])
      assert.equal(byId(report, id).status, 'ok', id);
    assert.match(
      byId(report, 'dns').summary,
      new RegExp(`${dnsServer.address} answers; mx\\.example\\.test → 203\\.0\\.113\\.7`),
    );
    const rdns = byId(report, 'reverse_dns');
    assert.equal(rdns.status, 'warn');
    assert.match(rdns.summary, /203\.0\.113\.7 → mx\.example\.test \(forward-confirmed\)/);
    assert.match(rdns.summary, /198\.51\.100\.9 → host-9\.provider\.test/);
    assert.ok(
      dnsServer.queries.some((q) => q.name === '7.113.0.203.in-addr.arpa' && q.type === 'PTR'),
      'PTR asked of DNS_SERVERS',
    );
    assert.equal(byId(report, 'outbound').status, 'ok');
    assert.equal(byId(report, 'clock').status, 'fail');
    assert.equal(report.exitCode, 1);
    assert.doesNotThrow(() => JSON.stringify(report));
  });

  it('reports a dead resolver quickly, and an unreachable relay as a failure', async () => {
    dnsServer.fail('mx.dead.test', 'TIMEOUT');
    const ports = await freePorts(6);
    const started = Date.now();
    const report = await runDoctor({
      env: {
        DATA_DIR: dataDir,
        PORT: String(ports[0]),
        WORKER_PORT: String(ports[1]),
        SMTP_PORT: String(ports[2]),
        SUBMISSION_PORT: '0',
        MTA_INJECT_PORT: String(ports[4]),
        BIND_ADDRESS: '127.0.0.1',
        MAIL_HOSTNAME: 'mx.dead.test',
        DNS_SERVERS: dnsServer.address,
        SMTP_RELAY: `127.0.0.1:${ports[5]}`,
      },
      dnsTimeoutMs: 200,
      outboundTimeoutMs: 500,
      interfaceAddresses: () => [],
    });
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    assert.equal(byId(report, 'dns').status, 'fail');
    assert.match(byId(report, 'dns').summary, /TIMEOUT/);
    assert.equal(byId(report, 'reverse_dns').status, 'skip');
    const outbound = byId(report, 'outbound');
    assert.equal(outbound.status, 'fail', 'the configured relay is unreachable');
    assert.match(outbound.summary, /SMTP_RELAY/);
    assert.equal(
      report.checks.some((c) => c.id === 'port_submission_port'),
      false,
    );
  });

  it('reads TLS_CERT_FILE/TLS_KEY_FILE: a key of another certificate fails the check', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-doctor-tls-'));
    try {
      const make = (name: string): void => {
        makeSelfSignedCert({
          dir,
          name,
          subject: '/CN=mx.example.test',
          altNames: ['DNS:mx.example.test'],
          days: 30,
        });
      };
      make('a');
      make('b');
      const run = (key: string): Promise<DoctorReport> =>
        runDoctor({
          env: {
            DATA_DIR: dataDir,
            MAIL_HOSTNAME: 'mx.example.test',
            SUBMISSION_PORT: '0',
            TLS_CERT_FILE: path.join(dir, 'a.crt'),
            TLS_KEY_FILE: path.join(dir, key),
          },
          network: false,
        });
      const matching = byId(await run('a.key'), 'tls');
      assert.equal(matching.status, 'ok', matching.summary);
      assert.match(matching.summary, /a\.crt for mx\.example\.test, valid until /);
      assert.ok(matching.hints.some((h) => h.startsWith('Self-signed')));
      const other = byId(await run('b.key'), 'tls');
      assert.equal(other.status, 'fail');
      assert.match(other.summary, /the key does not match the certificate/);

      // SMTPS_PORT is probed over TLS: a plain greeting there is not ours.
      const smtps = tls.createServer(
        { key: fs.readFileSync(path.join(dir, 'a.key')), cert: fs.readFileSync(path.join(dir, 'a.crt')) },
        (s) => peer(s).end('220 mx.example.test ESMTP\r\n'),
      );
      const smtpsPort = await listen(smtps);
      const plain = net.createServer((s) => peer(s).end('220 mx.example.test ESMTP\r\n'));
      const plainPort = await listen(plain);
      const at = (p: number): Listener => ({ env: 'SMTPS_PORT', host: '127.0.0.1', port: p, kind: 'smtp' });
      try {
        assert.equal((await portState(at(smtpsPort), 'mx.example.test', 1500, probeSmtps)).state, 'ours');
        assert.equal((await portState(at(smtpsPort), 'other.test', 1500, probeSmtps)).state, 'foreign');
        assert.equal((await portState(at(plainPort), 'mx.example.test', 1500, probeSmtps)).state, 'foreign');
        assert.deepEqual(await portState(at(await freePort()), 'mx.example.test', 1500, probeSmtps), {
          state: 'bindable',
        });
      } finally {
        await Promise.all([close(smtps), close(plain)]);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops at an invalid configuration and says which keys', async () => {
    const report = await runDoctor({ env: { PORT: 'eighty', SHUTDOWN_TIMEOUT_MS: '1' }, network: false });
    const config = byId(report, 'config');
    assert.equal(config.status, 'fail');
    assert.match(config.summary, /PORT: /);
    assert.match(config.summary, /SHUTDOWN_TIMEOUT_MS: /);
    assert.equal(byId(report, 'data_dir').status, 'skip');
    assert.equal(report.exitCode, 1);
  });
});
