// resolveRoute (src/sender/route.ts) against the fake authoritative DNS server over loopback, through
// the application's resolver: MX priorities, the implicit MX, RFC 7505's null MX, DNS failures, the
// outbound guard, the relay, and the paths (OUTBOUND_IPV6, source addresses, OUTBOUND_MX_PORT).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { outboundGuardFromConfig } from '../../../src/mail/address-guard';
import type { RouteDeps } from '../../../src/sender/route';
import { MAX_ROUTE_ADDRESSES, orderByPriority, resolveRoute } from '../../../src/sender/route';
import { createDnsResolver } from '../../../src/shared/dns-resolver';
import type { FakeDns } from '../../helpers/dns-server';
import { startDnsServer } from '../../helpers/dns-server';

const closed = outboundGuardFromConfig({ outboundAllowPrivate: false });
const open = outboundGuardFromConfig({ outboundAllowPrivate: true });

describe('resolveRoute', () => {
  let dns: FakeDns;
  let deps: RouteDeps;

  before(async () => {
    dns = await startDnsServer();
  });
  after(() => dns.close());
  beforeEach(() => {
    dns.clear();
    deps = {
      dns: createDnsResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 300, tries: 1 }),
      guard: closed,
      path: { ipv6: true, port: 25 },
    };
  });

  it('orders MX hosts by preference, each host AAAA before A, on port 25', async () => {
    dns.set('prio.test', 'MX', [
      { exchange: 'backup.prio.test', priority: 20 },
      { exchange: 'primary.prio.test', priority: 10 },
    ]);
    dns.set('primary.prio.test', 'A', ['203.0.114.10']);
    dns.set('primary.prio.test', 'AAAA', ['2001:db9::10']);
    dns.set('backup.prio.test', 'A', ['203.0.114.20']);
    const route = await resolveRoute('Prio.Test.', deps);
    assert.equal(route.kind, 'mx');
    if (route.kind !== 'mx') return;
    assert.equal(route.domain, 'prio.test');
    assert.equal(route.implicit, false);
    assert.deepEqual(
      route.hosts.map((h) => [h.name, h.address, h.port, h.priority]),
      [
        ['primary.prio.test', '2001:db9::10', 25, 10],
        ['primary.prio.test', '203.0.114.10', 25, 10],
        ['backup.prio.test', '203.0.114.20', 25, 20],
      ],
    );
  });

  it('puts equal preferences in random order and never a higher preference first', () => {
    const records = [
      { name: 'c', priority: 20 },
      { name: 'a1', priority: 10 },
      { name: 'a2', priority: 10 },
      { name: 'a3', priority: 10 },
    ];
    const seen = new Set<string>();
    let seed = 1;
    // A small deterministic generator: the test sees several orders without depending on luck.
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 50; i++) {
      const order = orderByPriority(records, random).map((r) => r.name);
      assert.equal(order.at(-1), 'c');
      seen.add(order.slice(0, 3).join(','));
    }
    assert.ok(seen.size > 1, `equal preferences were always in one order: ${[...seen].join(' | ')}`);
  });

  it('uses the implicit MX (the domain A/AAAA) when there is no MX record', async () => {
    dns.set('implicit.test', 'A', ['203.0.114.30']);
    const route = await resolveRoute('implicit.test', deps);
    assert.equal(route.kind, 'mx');
    if (route.kind !== 'mx') return;
    assert.equal(route.implicit, true);
    assert.deepEqual(
      route.hosts.map((h) => [h.name, h.address]),
      [['implicit.test', '203.0.114.30']],
    );
  });

  it('fails a null MX (RFC 7505) at once with 5.1.10, without looking further', async () => {
    dns.set('nullmx.test', 'MX', [{ exchange: '', priority: 0 }]);
    dns.set('nullmx.test', 'A', ['203.0.114.40']);
    dns.queries.length = 0;
    const route = await resolveRoute('nullmx.test', deps);
    assert.equal(route.kind, 'fail');
    if (route.kind !== 'fail') return;
    assert.equal(route.enhancedStatus, '5.1.10');
    assert.match(route.response, /null MX/);
    assert.deepEqual(
      dns.queries.map((q) => q.type),
      ['MX'],
    );
  });

  it('fails a domain that does not exist, and one with neither MX nor address, with 5.1.2', async () => {
    const none = await resolveRoute('nowhere.test', deps);
    assert.equal(none.kind, 'fail');
    if (none.kind === 'fail') assert.equal(none.enhancedStatus, '5.1.2');
    dns.set('empty.test', 'TXT', ['v=spf1 -all']);
    const empty = await resolveRoute('empty.test', deps);
    assert.equal(empty.kind, 'fail');
    if (empty.kind === 'fail') {
      assert.equal(empty.enhancedStatus, '5.1.2');
      assert.match(empty.response, /no MX and no address/);
    }
  });

  it('defers on a DNS failure of the MX and when no MX host resolves', async () => {
    dns.fail('servfail.test', 'SERVFAIL');
    const failed = await resolveRoute('servfail.test', deps);
    assert.equal(failed.kind, 'defer');
    if (failed.kind === 'defer') assert.match(failed.response, /SERVFAIL/);
    dns.fail('timeout.test', 'TIMEOUT');
    const late = await resolveRoute('timeout.test', deps);
    assert.equal(late.kind, 'defer');
    if (late.kind === 'defer') assert.match(late.response, /TIMEOUT/);
    dns.set('dangling.test', 'MX', [{ exchange: 'gone.dangling.test', priority: 10 }]);
    const dangling = await resolveRoute('dangling.test', deps);
    assert.equal(dangling.kind, 'defer');
    if (dangling.kind === 'defer') assert.match(dangling.response, /no MX host of dangling\.test resolves/);
  });

  it('leaves out private addresses, and fails with 5.4.4 when every address is private', async () => {
    dns.set('mixed.test', 'MX', [
      { exchange: 'inside.mixed.test', priority: 10 },
      { exchange: 'outside.mixed.test', priority: 20 },
    ]);
    dns.set('inside.mixed.test', 'A', ['10.1.2.3']);
    dns.set('outside.mixed.test', 'A', ['203.0.114.50']);
    const mixed = await resolveRoute('mixed.test', deps);
    assert.equal(mixed.kind, 'mx');
    if (mixed.kind === 'mx') {
      assert.deepEqual(
        mixed.hosts.map((h) => h.address),
        ['203.0.114.50'],
      );
      assert.match(mixed.refused[0] ?? '', /inside\.mixed\.test 10\.1\.2\.3 is a private address/);
    }
    dns.set('internal.test', 'MX', [{ exchange: 'mx.internal.test', priority: 10 }]);
    dns.set('mx.internal.test', 'A', ['127.0.0.9']);
    const internal = await resolveRoute('internal.test', deps);
    assert.equal(internal.kind, 'fail');
    if (internal.kind === 'fail') {
      assert.equal(internal.enhancedStatus, '5.4.4');
      assert.match(internal.response, /resolves to a private address/);
    }
    const allowed = await resolveRoute('internal.test', { ...deps, guard: open });
    assert.equal(allowed.kind, 'mx', 'OUTBOUND_ALLOW_PRIVATE opens it');
  });

  it('drops IPv6 when OUTBOUND_IPV6 is off, binds the source address per family, uses OUTBOUND_MX_PORT', async () => {
    dns.set('dual.test', 'MX', [{ exchange: 'mx.dual.test', priority: 10 }]);
    dns.set('mx.dual.test', 'A', ['203.0.114.60']);
    dns.set('mx.dual.test', 'AAAA', ['2001:db9::60']);
    const both = await resolveRoute('dual.test', {
      ...deps,
      path: { ipv6: true, port: 2525, sourceV4: '198.51.100.7', sourceV6: '2001:db9::7' },
    });
    assert.equal(both.kind, 'mx');
    if (both.kind === 'mx') {
      assert.deepEqual(
        both.hosts.map((h) => [h.address, h.port, h.localAddress]),
        [
          ['2001:db9::60', 2525, '2001:db9::7'],
          ['203.0.114.60', 2525, '198.51.100.7'],
        ],
      );
    }
    dns.queries.length = 0;
    const v4 = await resolveRoute('dual.test', { ...deps, path: { ipv6: false, port: 25 } });
    assert.equal(v4.kind, 'mx');
    if (v4.kind === 'mx')
      assert.deepEqual(
        v4.hosts.map((h) => h.address),
        ['203.0.114.60'],
      );
    assert.ok(!dns.queries.some((q) => q.type === 'AAAA'), 'no AAAA query when IPv6 is off');
  });

  it(`tries at most ${MAX_ROUTE_ADDRESSES} addresses in one attempt`, async () => {
    dns.set(
      'many.test',
      'MX',
      Array.from({ length: 12 }, (_, i) => ({ exchange: `mx${i}.many.test`, priority: i })),
    );
    for (let i = 0; i < 12; i++) dns.set(`mx${i}.many.test`, 'A', [`203.0.114.${100 + i}`]);
    const route = await resolveRoute('many.test', deps);
    assert.equal(route.kind, 'mx');
    if (route.kind === 'mx') assert.equal(route.hosts.length, MAX_ROUTE_ADDRESSES);
  });

  it('sends everything to SMTP_RELAY when set, without a DNS query and without the guard', async () => {
    dns.queries.length = 0;
    const route = await resolveRoute('anything.test', {
      ...deps,
      relay: { host: '127.0.0.1', port: 2587, auth: { user: 'u', pass: 'p' } },
    });
    assert.equal(route.kind, 'relay');
    if (route.kind === 'relay') {
      assert.deepEqual([route.host.address, route.host.port], ['127.0.0.1', 2587]);
      assert.equal(route.relay.auth?.user, 'u');
    }
    assert.equal(dns.queries.length, 0);
  });
});
