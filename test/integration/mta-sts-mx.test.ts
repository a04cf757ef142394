// Issue 22 item 3: MTA-STS `enforce` over a real MX connection (the test-only OUTBOUND_MX_PORT
// and loopback sinks of the MX path tests): an MX with a certificate valid for its name gets
// the mail over TLS; one whose certificate is not trusted, or that offers no STARTTLS, gets
// nothing and the recipient is deferred with the policy named. Trust comes from EXTRA_CA_FILE
// only; no certificate check is turned off anywhere.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import type { MtaProcess } from '../helpers/mta-process';
import { startMta } from '../helpers/mta-process';
import type { Fixture } from '../helpers/outbound-mta';
import { inject, insertEmail, mtaEnv, prepareDatabase, stop, waitForOutcome } from '../helpers/outbound-mta';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { makeSelfSignedCert } from '../helpers/tls-cert';

const VALID = '127.0.0.21';
const UNTRUSTED = '127.0.0.22';
const PLAIN = '127.0.0.23';
const DOMAINS = ['valid.test', 'untrusted.test', 'plain.test'];

describe('MTA-STS enforce over a real MX connection', () => {
  const domain = 'shop-sts.com';
  let dir: string;
  let dns: FakeDns;
  let policyHost: https.Server;
  let sinks: SmtpSink[];
  let f: Fixture;
  let mta: MtaProcess;
  let injectPort: number;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mta-sts-mx-'));
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
    const caFile = path.join(dir, 'ca.pem');
    fs.writeFileSync(
      caFile,
      fs.readFileSync(policyCert.certFile, 'utf8') + fs.readFileSync(mxCert.certFile, 'utf8'),
    );

    policyHost = https.createServer(
      { key: fs.readFileSync(policyCert.keyFile), cert: fs.readFileSync(policyCert.certFile) },
      (req, res) => {
        const host = (req.headers.host ?? '').split(':')[0] ?? '';
        const d = host.replace(/^mta-sts\./, '');
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`version: STSv1\nmode: enforce\nmx: mx.${d}\nmax_age: 86400\n`);
      },
    );
    const [httpsPort, mxPort] = (await freePorts(2)) as [number, number];
    await new Promise<void>((resolve) => policyHost.listen(httpsPort, '127.0.0.1', resolve));

    sinks = [
      await startSmtpSink({
        host: VALID,
        port: mxPort,
        name: 'mx.valid.test',
        tls: { key: fs.readFileSync(mxCert.keyFile), cert: fs.readFileSync(mxCert.certFile) },
      }),
      // smtp-server's built-in certificate: issued for localhost by no CA we trust.
      await startSmtpSink({ host: UNTRUSTED, port: mxPort, name: 'mx.untrusted.test' }),
      await startSmtpSink({
        host: PLAIN,
        port: mxPort,
        name: 'mx.plain.test',
        disabledCommands: ['STARTTLS'],
      }),
    ];
    dns = await startDnsServer();
    for (const [d, ip] of [
      ['valid.test', VALID],
      ['untrusted.test', UNTRUSTED],
      ['plain.test', PLAIN],
    ] as const) {
      dns.set(d, 'MX', [{ exchange: `mx.${d}`, priority: 10 }]);
      dns.set(`mx.${d}`, 'A', [ip]);
      dns.set(`mta-sts.${d}`, 'A', ['127.0.0.1']);
      dns.set(`_mta-sts.${d}`, 'TXT', ['v=STSv1; id=1;']);
    }
    f = await prepareDatabase(dns, domain);
    const env: Record<string, string> = {
      ...(await mtaEnv(f, dns, undefined)),
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_MX_PORT: String(mxPort),
      MTA_STS_TEST_PORT: String(httpsPort),
      EXTRA_CA_FILE: caFile,
    };
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await Promise.all(sinks.map((s) => s.close()));
    await dns.close();
    await new Promise((resolve) => policyHost.close(resolve));
    fs.rmSync(f.dataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers to the listed MX over TLS with a certificate valid for its name', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['a@valid.test'] });
    const delivered = await waitForOutcome(f.db, emailId, (p) => p.outcome === 'delivered');
    assert.match(delivered.tls ?? '', /^TLSv1\.[23] /);
    assert.equal(sinks[0]?.messages.at(-1)?.secure, true);
  });

  it('defers, delivering nothing, when the MX certificate is not trusted', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['a@untrusted.test'] });
    const deferred = await waitForOutcome(f.db, emailId, (p) => p.outcome === 'deferred');
    assert.match(
      deferred.response,
      /MTA-STS policy \(enforce\) requires valid TLS: certificate refused \(127\.0\.0\.22: /,
    );
    assert.equal(sinks[1]?.messages.length, 0);
  });

  it('defers, delivering nothing, when the MX offers no STARTTLS', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['a@plain.test'] });
    const deferred = await waitForOutcome(f.db, emailId, (p) => p.outcome === 'deferred');
    assert.match(deferred.response, /MTA-STS policy \(enforce\) requires valid TLS: No TLS available/);
    assert.equal(sinks[2]?.messages.length, 0);
  });
});
