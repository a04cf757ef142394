// Issue 17, finding 9: the MTA connected to whatever a recipient domain's MX resolved
// to, 10.x and 127.x included (port 25 inside the operator's network), and the webhook
// guard read the IPv4-translated form `::ffff:0:a.b.c.d` as a public address.
// The integration part uses loopback addresses only: nothing here may reach a real
// private network, even against the unfixed code.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { classifyAddress, createAddressGuard, outboundGuardFromConfig } from '../../src/mail/address-guard';
import { deliveryOutcomes } from '../../src/mta/delivery-outcome';
import type { MxLookup } from '../../src/mta/mx-guard';
import { refusedMxResponse, routeToMx, screenMxTargets } from '../../src/mta/mx-guard';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

describe('address classification: every IPv6 form of an IPv4 address', () => {
  const cases: [string, string][] = [
    ['::ffff:10.0.0.1', 'private'], // IPv4-mapped
    ['::ffff:a00:1', 'private'],
    ['::ffff:0:10.0.0.1', 'private'], // IPv4-translated (RFC 2765): was 'public'
    ['::ffff:0:a00:1', 'private'],
    ['0:0:0:0:ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:169.254.169.254', 'metadata'],
    ['::ffff:0:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'], // NAT64 well-known prefix
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::a00:1', 'private'], // local-use NAT64
    ['::10.0.0.1', 'reserved'], // IPv4-compatible
    ['2002:a00:1::1', 'reserved'], // 6to4 of 10.0.0.1
    ['2001:0:a00:1::1', 'reserved'], // Teredo
  ];
  for (const [ip, category] of cases) {
    it(`${ip} is ${category}`, () => assert.equal(classifyAddress(ip), category));
  }

  it('the webhook guard refuses the translated form of a private address', () => {
    const guard = createAddressGuard({ allowPrivate: false, allowedCidrs: [] });
    assert.equal(guard.check('::ffff:0:10.0.0.1').allowed, false);
    assert.equal(guard.check('::ffff:0:127.0.0.1').allowed, false);
  });
});

describe('the outbound guard on resolved MX addresses', () => {
  const guard = outboundGuardFromConfig({ outboundAllowPrivate: false });

  it('keeps public addresses, refuses private, loopback, metadata and unresolved targets', () => {
    const targets = [
      { exchange: '10.0.0.1', from_dns: 'mx.evil.test' },
      { exchange: '127.0.0.2', from_dns: 'mx.evil.test' },
      { exchange: '::ffff:127.0.0.2', from_dns: 'mx.evil.test' },
      { exchange: '::ffff:0:10.0.0.1', from_dns: 'mx.evil.test' },
      { exchange: '169.254.169.254', from_dns: 'mx.evil.test' },
      { exchange: 'mx.unresolved.test' },
      { exchange: '203.0.114.7', from_dns: 'mx.ok.test' },
    ];
    const { allowed, refused } = screenMxTargets(targets, guard);
    assert.deepEqual(
      allowed.map((t) => t.exchange),
      ['203.0.114.7'],
    );
    assert.equal(refused.length, 6);
    assert.match(
      refused[0] ?? '',
      /^mx\.evil\.test 10\.0\.0\.1 is a private address \(OUTBOUND_ALLOW_PRIVATE/,
    );
    assert.match(refusedMxResponse('evil.test', refused), /MX of evil\.test resolves to a private address/);
  });

  it('OUTBOUND_ALLOW_PRIVATE opens private ranges, OUTBOUND_ALLOWED_CIDRS a listed one, metadata stays shut', () => {
    const open = outboundGuardFromConfig({ outboundAllowPrivate: true });
    assert.equal(open.check('10.0.0.1').allowed, true);
    assert.equal(open.check('169.254.169.254').allowed, false);
    const listed = outboundGuardFromConfig({
      outboundAllowPrivate: false,
      outboundAllowedCidrs: [{ address: '10.1.0.0', prefix: 16, family: 'ipv4' }],
    });
    assert.equal(listed.check('10.1.2.3').allowed, true);
    assert.equal(listed.check('10.2.0.1').allowed, false);
  });

  /** Haraka's lookup functions over a fixed table (a stand-in for DNS, not for our code). */
  function lookupOf(
    mx: Record<string, { exchange: string; priority: number }[]>,
    a: Record<string, string[]>,
  ) {
    const lookup: MxLookup = {
      get_mx: (domain) => Promise.resolve((mx[domain] ?? []).map((m) => ({ ...m }))),
      resolve_mx_hosts: (mxs) =>
        Promise.resolve(
          mxs.flatMap((m) =>
            (a[m.exchange ?? ''] ?? []).map((ip) => ({ ...m, exchange: ip, from_dns: m.exchange })),
          ),
        ),
    };
    return lookup;
  }

  it('routes to the allowed addresses by preference, refuses when none is left, leaves a null MX to Haraka', async () => {
    const lookup = lookupOf(
      {
        'mixed.test': [
          { exchange: 'b.mixed.test', priority: 20 },
          { exchange: 'a.mixed.test', priority: 10 },
        ],
        'private.test': [{ exchange: 'mx.private.test', priority: 10 }],
        'null.test': [{ exchange: '', priority: 0 }],
      },
      {
        'a.mixed.test': ['10.0.0.1', '203.0.114.1'],
        'b.mixed.test': ['203.0.114.2'],
        'mx.private.test': ['10.0.0.1', '::ffff:0:a00:1'],
      },
    );
    const mixed = await routeToMx('mixed.test', lookup, guard);
    assert.equal(mixed.kind, 'deliver');
    if (mixed.kind === 'deliver') {
      assert.deepEqual(
        mixed.targets.map((t) => t.exchange),
        ['203.0.114.1', '203.0.114.2'],
      );
      assert.equal(mixed.refused.length, 1);
    }
    const refused = await routeToMx('private.test', lookup, guard);
    assert.equal(refused.kind, 'refuse');
    assert.equal((await routeToMx('null.test', lookup, guard)).kind, 'haraka');
    assert.equal((await routeToMx('none.test', lookup, guard)).kind, 'haraka');
  });

  it('a refused MX is a permanent failure of each recipient, not a deferral', () => {
    const [outcome] = deliveryOutcomes({
      hook: 'bounce',
      emailId: 'email_1',
      recipients: [{ address: 'A@Evil.test' }],
      error: 'No MX for evil.test',
      numFailures: 0,
      retryBudget: 3,
      refusedMx: 'Not delivered: the MX of evil.test resolves to a private address (…)',
      at: '2030-01-01T00:00:00.000Z',
    });
    assert.equal(outcome?.outcome, 'failed');
    assert.equal(outcome?.enhancedStatus, '5.4.4');
    assert.equal(outcome?.recipient, 'a@evil.test');
    assert.match(outcome?.response ?? '', /private address/);
  });
});

interface EmailView {
  status: string;
  recipients: { email: string; status: string; smtpResponse: string | null }[];
}

describe('the appliance never connects to an MX on a private address', () => {
  const DOMAIN = 'sender-sec.example.com';
  let dns: FakeDns;
  let app: Appliance;
  let apiKey: string;
  /** Stands where a private MX would be: 127.0.0.2:25, reached through `::ffff:127.0.0.2`. */
  let trap: net.Server;
  const connections: string[] = [];
  const sockets = new Set<net.Socket>();

  before(async () => {
    trap = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      connections.push(String(socket.remoteAddress));
      socket.end('554 5.7.1 test trap: no connection was expected\r\n');
    });
    await new Promise<void>((resolve, reject) => {
      trap.once('error', reject);
      trap.listen(25, '127.0.0.2', resolve);
    });
    dns = await startDnsServer();
    // Haraka skips an MX on 127/8 by itself (local_mx_ok=false), but not the IPv4-mapped
    // form, which the kernel connects over IPv4 to 127.0.0.2: the path that reached port 25.
    dns.set('mapped.test', 'MX', [{ exchange: 'mx.mapped.test', priority: 10 }]);
    // Hex form: the fake DNS server (dns2) encodes a dotted-quad IPv6 text wrongly.
    dns.set('mx.mapped.test', 'AAAA', ['::ffff:7f00:2']);
    dns.set('loop.test', 'MX', [{ exchange: 'mx.loop.test', priority: 10 }]);
    dns.set('mx.loop.test', 'A', ['127.0.0.3']);
    // No MX: the domain's own address is the implicit MX (RFC 5321 §5.1).
    dns.set('implicit.test', 'AAAA', ['::ffff:7f00:2']);
    app = await startAppliance({ env: { DNS_SERVERS: dns.address, MTA_RETRY_INTERVALS: '5,5' } });
    const account = await app.api.registerWithKey();
    apiKey = account.apiKey;
    await addVerifiedDomain(app, dns, account.token, DOMAIN);
  });
  after(async () => {
    await app.stop();
    await dns.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => trap.close(resolve));
  });

  async function settled(id: string): Promise<EmailView> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const view = (await app.api.get<EmailView>(`/v1/emails/${id}`, { token: apiKey })).body;
      if (view.recipients.every((r) => ['failed', 'bounced', 'delivered'].includes(r.status))) return view;
      if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(view)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('fails each recipient with "MX resolves to a private address" and opens no connection', async () => {
    const recipients = ['a@mapped.test', 'b@loop.test', 'c@implicit.test'];
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: { from: `app@${DOMAIN}`, to: recipients, subject: 'hello', text: 'hello' },
    });
    assert.equal(res.status, 202, res.text);
    const view = await settled(res.body.id);
    assert.deepEqual(connections, [], 'the MTA connected to 127.0.0.2:25');
    for (const r of view.recipients) {
      assert.equal(r.status, 'failed', JSON.stringify(r));
      assert.match(r.smtpResponse ?? '', /resolves to a private address/, JSON.stringify(r));
    }
  });
});
