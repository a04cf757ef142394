import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import type { Listener } from '../../../../src/cli/appliance-probe';
import type { CheckResult } from '../../../../src/cli/doctor/check-result';
import type { DoctorReport } from '../../../../src/cli/doctor/doctor-report';
import { portState, probeSmtps } from '../../../../src/cli/doctor/port-check';
import { runDoctor } from '../../../../src/cli/doctor/run-doctor';
import type { FakeDns } from '../../../helpers/dns-server';
import { startDnsServer } from '../../../helpers/dns-server';
import { freePort, freePorts } from '../../../helpers/free-port';
import { listenerEnv } from '../../../helpers/listener-env';
import type { SmtpSink } from '../../../helpers/smtp-sink';
import { startSmtpSink } from '../../../helpers/smtp-sink';
import { makeSelfSignedCert } from '../../../helpers/tls-cert';
import { close, listen, peer } from './local-peers';

const byId = (report: DoctorReport, id: string): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  assert.ok(found, `no check ${id}`);
  return found;
};

describe('doctor: network checks against local peers', () => {
  let dnsServer: FakeDns;
  let sink: SmtpSink;
  let clock: http.Server;
  let clockPort: number;
  let dataDir: string;

  before(async () => {
    dnsServer = await startDnsServer();
    sink = await startSmtpSink({ name: 'mx.remote.test' });
    clock = http.createServer((_req, res) => {
      // 10 minutes behind us: the clock check must fail.
      res.setHeader('date', new Date(Date.now() - 600_000).toUTCString());
      res.end();
    });
    clockPort = await listen(clock);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-doctor-'));
  });
  after(async () => {
    await Promise.all([dnsServer.close(), sink.close(), close(clock)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every check through DNS_SERVERS and local peers', async () => {
    dnsServer.set('mx.example.net', 'A', ['203.0.113.7']);
    dnsServer.set('7.113.0.203.in-addr.arpa', 'PTR', ['mx.example.net']);
    dnsServer.set('9.100.51.198.in-addr.arpa', 'PTR', ['host-9.provider.test']);
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${'s'.repeat(43)}\n`, { mode: 0o600 });
    fs.chmodSync(dataDir, 0o700);
    const ports = await freePorts(5);
    const env = {
      DATA_DIR: dataDir,
      ...listenerEnv(ports),
      MAIL_HOSTNAME: 'mx.example.net',
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
    for (const id of ['port_port', 'port_worker_port', 'port_smtp_port', 'port_submission_port'])
      assert.equal(byId(report, id).status, 'ok', id);
    // Only the deprecated OUTBOUND_SENDER=haraka listens on MTA_INJECT_PORT.
    assert.equal(
      report.checks.find((c) => c.id === 'port_mta_inject_port'),
      undefined,
    );
    assert.match(
      byId(report, 'dns').summary,
      new RegExp(`${dnsServer.address} answers; mx\\.example\\.net → 203\\.0\\.113\\.7`),
    );
    const rdns = byId(report, 'reverse_dns');
    assert.equal(rdns.status, 'warn');
    assert.match(rdns.summary, /203\.0\.113\.7 → mx\.example\.net \(forward-confirmed\)/);
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
        ...listenerEnv(ports),
        SUBMISSION_PORT: '0',
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
          subject: '/CN=mx.example.net',
          altNames: ['DNS:mx.example.net'],
          days: 30,
        });
      };
      make('a');
      make('b');
      const run = (key: string): Promise<DoctorReport> =>
        runDoctor({
          env: {
            DATA_DIR: dataDir,
            MAIL_HOSTNAME: 'mx.example.net',
            SUBMISSION_PORT: '0',
            TLS_CERT_FILE: path.join(dir, 'a.crt'),
            TLS_KEY_FILE: path.join(dir, key),
          },
          network: false,
        });
      const matching = byId(await run('a.key'), 'tls');
      assert.equal(matching.status, 'ok', matching.summary);
      assert.match(matching.summary, /a\.crt for mx\.example\.net, valid until /);
      assert.ok(matching.hints.some((h) => h.startsWith('Self-signed')));
      const other = byId(await run('b.key'), 'tls');
      assert.equal(other.status, 'fail');
      assert.match(other.summary, /the key does not match the certificate/);

      // SMTPS_PORT is probed over TLS: a plain greeting there is not ours.
      const smtps = tls.createServer(
        { key: fs.readFileSync(path.join(dir, 'a.key')), cert: fs.readFileSync(path.join(dir, 'a.crt')) },
        (s) => peer(s).end('220 mx.example.net ESMTP\r\n'),
      );
      const smtpsPort = await listen(smtps);
      const plain = net.createServer((s) => peer(s).end('220 mx.example.net ESMTP\r\n'));
      const plainPort = await listen(plain);
      const at = (p: number): Listener => ({ env: 'SMTPS_PORT', host: '127.0.0.1', port: p, kind: 'smtp' });
      try {
        assert.equal((await portState(at(smtpsPort), 'mx.example.net', 1500, probeSmtps)).state, 'ours');
        assert.equal((await portState(at(smtpsPort), 'other.test', 1500, probeSmtps)).state, 'foreign');
        assert.equal((await portState(at(plainPort), 'mx.example.net', 1500, probeSmtps)).state, 'foreign');
        assert.deepEqual(await portState(at(await freePort()), 'mx.example.net', 1500, probeSmtps), {
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
