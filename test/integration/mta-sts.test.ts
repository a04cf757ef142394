// Issue 22 item 3: MTA-STS (RFC 8461) on the MX path, over real DNS (fake server), real
// HTTPS on loopback (a certificate trusted through EXTRA_CA_FILE only: no check is turned
// off) and the real appliance. Haraka skips a loopback MX (local_mx_ok=false), so what is
// observed here is the policy's decision: a deferral naming the policy, or Haraka going on
// to the MX as without one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import { makeSelfSignedCert } from '../helpers/tls-cert';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface EmailView {
  recipients: { email: string; status: string }[];
  events: { type: string; message: string | null }[];
}

const DOMAIN = 'shop.example.com';

describe('MTA-STS on delivery to the MX', () => {
  let dir: string;
  let dns: FakeDns;
  let app: Appliance;
  let apiKey: string;
  let server: https.Server;
  /** Policy file per host name; requests per host name. */
  const policies = new Map<string, string>();
  const fetched: string[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mta-sts-'));
    const hosts = ['enforce', 'testing', 'cached'].map((d) => `mta-sts.${d}.test`);
    const cert = makeSelfSignedCert({
      dir,
      name: 'policy-host',
      subject: '/CN=mta-sts.test',
      altNames: hosts.map((h) => `DNS:${h}`),
    });
    server = https.createServer(
      { key: fs.readFileSync(cert.keyFile), cert: fs.readFileSync(cert.certFile) },
      (req, res) => {
        const host = (req.headers.host ?? '').split(':')[0] ?? '';
        fetched.push(`${host}${req.url ?? ''}`);
        const body = policies.get(host);
        if (req.url !== '/.well-known/mta-sts.txt' || body === undefined) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
      },
    );
    const [port] = await freePorts(1);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    dns = await startDnsServer();
    for (const d of ['enforce.test', 'testing.test', 'cached.test', 'wrongcert.test']) {
      dns.set(d, 'MX', [{ exchange: `mx.${d}`, priority: 10 }]);
      dns.set(`mx.${d}`, 'A', ['127.0.0.1']);
      dns.set(`mta-sts.${d}`, 'A', ['127.0.0.1']);
      dns.set(`_mta-sts.${d}`, 'TXT', ['v=STSv1; id=20261126a;']);
    }
    policies.set(
      'mta-sts.enforce.test',
      'version: STSv1\r\nmode: enforce\r\nmx: *.elsewhere.test\r\nmax_age: 86400\r\n',
    );
    policies.set(
      'mta-sts.testing.test',
      'version: STSv1\nmode: testing\nmx: mx1.elsewhere.test\nmax_age: 86400\n',
    );
    policies.set(
      'mta-sts.cached.test',
      'version: STSv1\nmode: enforce\nmx: mail.elsewhere.test\nmax_age: 86400\n',
    );
    app = await startAppliance({
      env: {
        DNS_SERVERS: dns.address,
        // The MX and the policy host are on loopback, which the outbound guard refuses otherwise.
        OUTBOUND_ALLOW_PRIVATE: 'true',
        MTA_STS_TEST_PORT: String(port),
        EXTRA_CA_FILE: cert.certFile,
        MTA_RETRY_INTERVALS: '600',
      },
    });
    const account = await app.api.registerWithKey();
    await addVerifiedDomain(app, dns, account.token, DOMAIN);
    apiKey = account.apiKey;
  });
  after(async () => {
    await app.stop();
    await dns.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function sendAndWaitDeferred(to: string): Promise<EmailView> {
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: { from: `orders@${DOMAIN}`, to, subject: 'Your order', text: 'Thanks' },
    });
    assert.equal(sent.status, 202, sent.text);
    const deadline = Date.now() + 40_000;
    for (;;) {
      const res = await app.api.get<EmailView>(`/v1/emails/${sent.body.id}`, { token: apiKey });
      if (res.body.events.some((e) => e.type === 'deferred')) return res.body;
      if (Date.now() > deadline)
        assert.fail(`not deferred: ${JSON.stringify(res.body)}\n${app.lines.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  function deferral(view: EmailView): string {
    return view.events.find((e) => e.type === 'deferred')?.message ?? '';
  }

  it('enforce: an MX the policy does not list is not used; the recipient is deferred with the policy as reason', async () => {
    const view = await sendAndWaitDeferred('someone@enforce.test');
    assert.match(
      deferral(view),
      /MTA-STS policy of enforce\.test \(enforce, id 20261126a\) allows only MX \*\.elsewhere\.test; none of mx\.enforce\.test matches/,
    );
    assert.ok(fetched.includes('mta-sts.enforce.test/.well-known/mta-sts.txt'), fetched.join(', '));
  });

  it('testing: delivery goes on as without a policy, and the mismatch is logged', async () => {
    const view = await sendAndWaitDeferred('someone@testing.test');
    // Haraka then skips the loopback MX itself: its own reason, not the policy's.
    assert.doesNotMatch(deferral(view), /MTA-STS/);
    const logged = app.lines.find((l) => l.includes('"mta_sts_testing_violation"'));
    assert.ok(logged, 'mta_sts_testing_violation logged');
    assert.match(logged, /mx\.testing\.test/);
  });

  it('caches the policy by id: the next message does not fetch it again, a new id does', async () => {
    await sendAndWaitDeferred('a@cached.test');
    await sendAndWaitDeferred('b@cached.test');
    const count = () => fetched.filter((f) => f.startsWith('mta-sts.cached.test')).length;
    assert.equal(count(), 1);
    dns.set('_mta-sts.cached.test', 'TXT', ['v=STSv1; id=20261126b;']);
    const view = await sendAndWaitDeferred('c@cached.test');
    assert.equal(count(), 2);
    assert.match(deferral(view), /id 20261126b/);
  });

  it('a policy host whose certificate does not match is not trusted: no policy, logged', async () => {
    const view = await sendAndWaitDeferred('someone@wrongcert.test');
    assert.doesNotMatch(deferral(view), /MTA-STS/);
    const logged = app.lines.find((l) => l.includes('"mta_sts_unavailable"') && l.includes('wrongcert.test'));
    assert.ok(logged, 'mta_sts_unavailable logged');
    assert.match(logged, /mta-sts\.wrongcert\.test/);
  });
});
