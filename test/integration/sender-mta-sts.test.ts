// MTA-STS (RFC 8461) in the sender's delivery (src/sender/deliver.ts), over real MX connections as
// test/integration/mta-sts-mx.test.ts does for the Haraka path: the policy discovered through the
// fake DNS and fetched over HTTPS (src/mta/mta-sts-discovery.ts); under `enforce` an MX with a
// certificate valid for its name gets the mail over TLS, one with an untrusted certificate or
// without STARTTLS gets nothing, and an MX the policy does not list is never contacted. Trust comes
// from the test CA passed in only; no certificate check is turned off.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/mta/destination-limits';
import { StsDiscovery, httpsPolicyFetcher } from '../../src/mta/mta-sts-discovery';
import { outboundGuardFromConfig } from '../../src/mail/address-guard';
import { parseConfig } from '../../src/config';
import { ConnectionPool } from '../../src/sender/connection-pool';
import type { OutboundSender } from '../../src/sender/outbound-sender';
import { createOutboundSender } from '../../src/sender/outbound-sender';
import type { RecipientResult } from '../../src/sender/deliver';
import { deliver } from '../../src/sender/deliver';
import type { RouteDeps } from '../../src/sender/route';
import { resolveRoute } from '../../src/sender/route';
import { RFC5321_TIMEOUTS } from '../../src/sender/smtp-link';
import { createDnsResolver } from '../../src/shared/dns-resolver';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { makeSelfSignedCert } from '../helpers/tls-cert';

const VALID = '127.0.0.51';
const UNTRUSTED = '127.0.0.52';
const PLAIN = '127.0.0.53';
const UNLISTED = '127.0.0.54';
const DOMAINS = ['valid.test', 'untrusted.test', 'plain.test', 'unlisted.test', 'testing.test'];
const MESSAGE = Buffer.from('From: a@shop.test\r\nTo: b@valid.test\r\nSubject: sts\r\n\r\nHi\r\n');

describe('sender: MTA-STS over real MX connections', () => {
  let dir: string;
  let dns: FakeDns;
  let policyHost: https.Server;
  let sinks: SmtpSink[];
  let pool: ConnectionPool;
  let routeDeps: RouteDeps;
  let sts: StsDiscovery;
  const logged: string[] = [];

  /** The same sender as the worker's, assembled by createOutboundSender from the configuration. */
  let assembled: OutboundSender;
  const sendByHand = async (domain: string): Promise<RecipientResult | undefined> => {
    const route = await resolveRoute(domain, routeDeps);
    const [result] = await deliver(
      route,
      { from: 'bounce+x@bounce.shop.test', to: [`a@${domain}`] },
      MESSAGE,
      {
        pool,
        sts: (d) => sts.lookup(d),
        log: (event) => logged.push(event),
      },
    );
    return result;
  };
  const sendAssembled = async (domain: string): Promise<RecipientResult | undefined> => {
    const [result] = await assembled.send({
      from: 'bounce+x@bounce.shop.test',
      to: [`a@${domain}`],
      message: MESSAGE,
    });
    return result;
  };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sender-sts-'));
    const policyCert = makeSelfSignedCert({
      dir,
      name: 'policy',
      subject: '/CN=mta-sts.valid.test',
      altNames: DOMAINS.map((d) => `DNS:mta-sts.${d}`),
    });
    const mxCert = makeSelfSignedCert({
      dir,
      name: 'mx',
      subject: '/CN=mx.valid.test',
      altNames: ['DNS:mx.valid.test'],
    });
    const ca = [
      ...tls.getCACertificates('default'),
      fs.readFileSync(policyCert.certFile, 'utf8'),
      fs.readFileSync(mxCert.certFile, 'utf8'),
    ];
    policyHost = https.createServer(
      { key: fs.readFileSync(policyCert.keyFile), cert: fs.readFileSync(policyCert.certFile) },
      (req, res) => {
        const d = (req.headers.host ?? '').split(':')[0]?.replace(/^mta-sts\./, '') ?? '';
        // unlisted.test and testing.test list another MX than the one they publish; testing.test
        // only reports (RFC 8461 §5.2).
        const mx = d === 'unlisted.test' || d === 'testing.test' ? 'mx.elsewhere.test' : `mx.${d}`;
        const mode = d === 'testing.test' ? 'testing' : 'enforce';
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`version: STSv1\nmode: ${mode}\nmx: ${mx}\nmax_age: 86400\n`);
      },
    );
    const [httpsPort, mxPort] = (await freePorts(2)) as [number, number];
    await new Promise<void>((resolve) => policyHost.listen(httpsPort, '127.0.0.1', resolve));
    const mxKey = { key: fs.readFileSync(mxCert.keyFile), cert: fs.readFileSync(mxCert.certFile) };
    sinks = [
      await startSmtpSink({ host: VALID, port: mxPort, name: 'mx.valid.test', tls: mxKey }),
      // smtp-server's built-in certificate: issued for localhost by no CA we trust.
      await startSmtpSink({ host: UNTRUSTED, port: mxPort, name: 'mx.untrusted.test' }),
      await startSmtpSink({
        host: PLAIN,
        port: mxPort,
        name: 'mx.plain.test',
        disabledCommands: ['STARTTLS'],
      }),
      await startSmtpSink({ host: UNLISTED, port: mxPort, name: 'mx.unlisted.test' }),
    ];
    dns = await startDnsServer();
    const ips = [VALID, UNTRUSTED, PLAIN, UNLISTED, UNTRUSTED];
    for (const [i, d] of DOMAINS.entries()) {
      dns.set(d, 'MX', [{ exchange: `mx.${d}`, priority: 10 }]);
      dns.set(`mx.${d}`, 'A', [ips[i] ?? '']);
      dns.set(`mta-sts.${d}`, 'A', ['127.0.0.1']);
      dns.set(`_mta-sts.${d}`, 'TXT', ['v=STSv1; id=1;']);
    }
    const resolver = createDnsResolver({ servers: [{ host: dns.host, port: dns.port }] });
    const guard = outboundGuardFromConfig({ outboundAllowPrivate: true });
    routeDeps = { dns: resolver, guard, path: { ipv6: false, port: mxPort } };
    sts = new StsDiscovery({
      resolveTxt: async (name) => {
        const found = await resolver.txt(name);
        if (found.status === 'found') return found.records.map((r) => [r]);
        throw Object.assign(new Error(found.status), {
          code: found.status === 'failed' ? found.code : 'ENODATA',
        });
      },
      fetchPolicy: httpsPolicyFetcher({
        resolveAddresses: async (name) => {
          const found = await resolver.a(name);
          return found.status === 'found' ? [...found.records] : [];
        },
        guard,
        port: httpsPort,
        timeoutMs: 5_000,
        ca,
      }),
    });
    const extraCa = path.join(dir, 'extra-ca.pem');
    fs.writeFileSync(
      extraCa,
      fs.readFileSync(policyCert.certFile, 'utf8') + fs.readFileSync(mxCert.certFile, 'utf8'),
    );
    assembled = createOutboundSender(
      parseConfig({
        DATA_DIR: dir,
        MAIL_HOSTNAME: 'mail.sender.test',
        DNS_SERVERS: `${dns.host}:${dns.port}`,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        OUTBOUND_IPV6: 'false',
        OUTBOUND_MX_PORT: String(mxPort),
        MTA_STS_TEST_PORT: String(httpsPort),
        EXTRA_CA_FILE: extraCa,
      }),
      (event) => logged.push(event),
    );
    pool = new ConnectionPool({
      name: 'mail.sender.test',
      limits: () => DEFAULT_LIMITS,
      timeouts: { ...RFC5321_TIMEOUTS, connectMs: 5_000, greetingMs: 10_000 },
      ca,
    });
  });

  after(async () => {
    pool.close();
    assembled.close();
    await Promise.all(sinks.map((s) => s.close()));
    await dns.close();
    await new Promise((resolve) => policyHost.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [how, send] of [
    ['deliver() with its deps built by hand', sendByHand],
    ["the worker's sender, assembled from the configuration", sendAssembled],
  ] as const)
    describe(how, () => {
      before(() => {
        for (const sink of sinks) sink.reset();
      });
      it('delivers to the listed MX over TLS with a certificate valid for its name', async () => {
        const result = await send('valid.test');
        assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
        assert.match(result?.tls ?? '', /^TLSv1\.[23] /);
        assert.equal(sinks[0]?.messages.at(-1)?.secure, true);
      });

      it('defers, delivering nothing, when the MX certificate is not trusted', async () => {
        const result = await send('untrusted.test');
        assert.equal(result?.outcome, 'deferred');
        assert.match(
          result?.response ?? '',
          /^MTA-STS policy \(enforce\) requires valid TLS: certificate refused \(127\.0\.0\.52: /,
        );
        assert.equal(result?.tls, null);
        assert.equal(sinks[1]?.messages.length, 0);
      });

      it('defers, delivering nothing, when the MX offers no STARTTLS', async () => {
        const result = await send('plain.test');
        assert.equal(result?.outcome, 'deferred');
        assert.match(
          result?.response ?? '',
          /^MTA-STS policy \(enforce\) requires valid TLS: mx\.plain\.test offers no STARTTLS/,
        );
        assert.equal(sinks[2]?.messages.length, 0);
      });

      it('defers without connecting when no MX matches the policy', async () => {
        const connections = sinks[3]?.connections;
        const result = await send('unlisted.test');
        assert.equal(result?.outcome, 'deferred');
        assert.match(
          result?.response ?? '',
          /allows only MX mx\.elsewhere\.test; none of mx\.unlisted\.test matches/,
        );
        assert.equal(sinks[3]?.connections, connections, 'the unlisted MX is never contacted');
      });

      it('under `testing` delivers as before (opportunistic TLS) and reports the violation', async () => {
        logged.length = 0;
        const result = await send('testing.test');
        assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
        assert.ok(logged.includes('mta_sts_testing_violation'), logged.join(', '));
        assert.equal(sinks[1]?.messages.length, 1, 'the untrusted certificate is fine without enforce');
      });
    });
});
