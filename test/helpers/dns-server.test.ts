import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import dns2 from 'dns2';
import { startDnsServer } from './dns-server';
import type { FakeDns } from './dns-server';

const LONG_TXT = `v=DKIM1; k=rsa; p=${'A'.repeat(600 - 'v=DKIM1; k=rsa; p='.length)}`;

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.equal((err as NodeJS.ErrnoException).code, code);
    return true;
  });
}

void describe('fake DNS server', () => {
  let dns: FakeDns;
  let resolver: Resolver;

  before(async () => {
    dns = await startDnsServer();
  });
  after(async () => {
    await dns.close();
  });
  beforeEach(() => {
    dns.clear();
    dns.queries.length = 0;
    resolver = new Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([dns.address]);
  });

  void it('exposes a 127.0.0.1:<port> address', () => {
    assert.equal(dns.host, '127.0.0.1');
    assert.ok(dns.port > 0);
    assert.equal(dns.address, `127.0.0.1:${dns.port}`);
  });

  void it('splits a long TXT value into ≤255-byte character-strings', async () => {
    dns.set('Sel._domainkey.Example.COM.', 'TXT', [LONG_TXT]);
    const records = await resolver.resolveTxt('sel._domainkey.example.com');
    assert.equal(records.length, 1);
    const chunks = records[0]!;
    assert.deepEqual(
      chunks.map((c) => c.length),
      [255, 255, 90],
    );
    assert.equal(chunks.join(''), LONG_TXT);
    assert.deepEqual(dns.queries[0], { name: 'sel._domainkey.example.com', type: 'TXT', transport: 'udp' });
  });

  void it('sends explicit TXT chunks verbatim and keeps separate records apart', async () => {
    dns.set('example.com', 'TXT', [['v=spf1 ', 'ip4:192.0.2.1 -all'], 'hello']);
    dns.add('example.com', 'TXT', 'world');
    const records = await resolver.resolveTxt('example.com');
    assert.deepEqual(
      records.sort((a, b) => a.join('').localeCompare(b.join(''))),
      [['hello'], ['v=spf1 ', 'ip4:192.0.2.1 -all'], ['world']],
    );
    assert.throws(() => dns.set('example.com', 'TXT', [['x'.repeat(256)]]), RangeError);
  });

  void it('answers MX, A, AAAA, CNAME and PTR', async () => {
    dns.set('example.com', 'MX', [
      { exchange: 'mx2.example.com.', priority: 20 },
      { exchange: 'MX1.example.com', priority: 10 },
    ]);
    dns.set('mx1.example.com', 'A', ['192.0.2.10']);
    dns.add('mx1.example.com', 'A', '192.0.2.11');
    dns.set('mx1.example.com', 'AAAA', ['2001:db8::10']);
    dns.set('www.example.com', 'CNAME', ['mx1.example.com']);
    dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['localhost.example.com']);
    dns.set('5.2.0.192.in-addr.arpa', 'PTR', ['mail.example.net']);

    const mx = await resolver.resolveMx('example.com');
    assert.deepEqual(
      mx.map(({ exchange, priority }) => ({ exchange, priority })).sort((a, b) => a.priority - b.priority),
      [
        { exchange: 'mx1.example.com', priority: 10 },
        { exchange: 'mx2.example.com', priority: 20 },
      ],
    );
    assert.deepEqual((await resolver.resolve4('MX1.example.com')).sort(), ['192.0.2.10', '192.0.2.11']);
    assert.deepEqual(await resolver.resolve6('mx1.example.com'), ['2001:db8::10']);
    assert.deepEqual(await resolver.resolveCname('www.example.com'), ['mx1.example.com']);
    // An A query for an alias follows the in-zone CNAME, as an authoritative server would.
    assert.deepEqual((await resolver.resolve4('www.example.com')).sort(), ['192.0.2.10', '192.0.2.11']);
    assert.deepEqual(await resolver.resolvePtr('1.0.0.127.in-addr.arpa'), ['localhost.example.com']);
    // reverse() goes through c-ares' host lookup, which answers loopback from /etc/hosts without
    // asking DNS, so reverse('127.0.0.1') never reaches the fake; use a documentation address.
    assert.deepEqual(await resolver.reverse('192.0.2.5'), ['mail.example.net']);
    assert.ok(dns.queries.some((q) => q.name === '5.2.0.192.in-addr.arpa' && q.type === 'PTR'));
  });

  void it('distinguishes NXDOMAIN from NODATA', async () => {
    dns.set('sel._domainkey.example.com', 'TXT', ['v=DKIM1; p=']);
    await rejectsWithCode(resolver.resolveTxt('missing.example.com'), 'ENOTFOUND');
    await rejectsWithCode(resolver.resolve4('sel._domainkey.example.com'), 'ENODATA');
    // Empty non-terminal: exists because a child does.
    await rejectsWithCode(resolver.resolveTxt('_domainkey.example.com'), 'ENODATA');
    dns.remove('sel._domainkey.example.com', 'TXT');
    await rejectsWithCode(resolver.resolveTxt('sel._domainkey.example.com'), 'ENOTFOUND');
  });

  void it('injects SERVFAIL, REFUSED and TIMEOUT per name until unfailed', async () => {
    dns.set('example.com', 'A', ['192.0.2.1']);
    dns.fail('EXAMPLE.com.', 'SERVFAIL');
    await rejectsWithCode(resolver.resolve4('example.com'), 'ESERVFAIL');
    dns.fail('example.com', 'REFUSED');
    await rejectsWithCode(resolver.resolve4('example.com'), 'EREFUSED');
    dns.fail('example.com', 'TIMEOUT');
    await rejectsWithCode(resolver.resolve4('example.com'), 'ETIMEOUT');
    dns.unfail('example.com');
    assert.deepEqual(await resolver.resolve4('example.com'), ['192.0.2.1']);
  });

  void it('answers over TCP on the same port', async () => {
    dns.set('sel._domainkey.example.com', 'TXT', [LONG_TXT]);
    dns.set('example.com', 'MX', [{ exchange: 'mx.example.com', priority: 5 }]);
    const query = dns2.TCPClient({ dns: dns.host, port: dns.port });
    const txt = await query('sel._domainkey.example.com', 'TXT');
    assert.equal(txt.header.rcode, dns2.Packet.RCODE.NOERROR);
    assert.deepEqual(txt.answers[0]?.data, [
      LONG_TXT.slice(0, 255),
      LONG_TXT.slice(255, 510),
      LONG_TXT.slice(510),
    ]);
    const mx = await query('example.com', 'MX');
    assert.equal(mx.answers[0]?.exchange, 'mx.example.com');
    const nx = await query('nope.example.com', 'A');
    assert.equal(nx.header.rcode, dns2.Packet.RCODE.NXDOMAIN);
    assert.deepEqual(
      dns.queries.map((q) => q.transport),
      ['tcp', 'tcp', 'tcp'],
    );
  });

  void it('lets a resolver retry a truncated UDP answer over TCP', async () => {
    const records = Array.from({ length: 8 }, (_, i) => `record-${i}-${'x'.repeat(400)}`);
    dns.set('big.example.com', 'TXT', records);
    const answer = await resolver.resolveTxt('big.example.com');
    assert.deepEqual(answer.map((chunks) => chunks.join('')).sort(), records);
    assert.deepEqual(
      dns.queries.map((q) => q.transport),
      ['udp', 'tcp'],
    );
  });
});

void it('close() does not wait for a TCP connection stuck on a TIMEOUT name', async () => {
  const dns = await startDnsServer();
  dns.fail('slow.example.com', 'TIMEOUT');
  const pending = dns2.TCPClient({ dns: dns.host, port: dns.port })('slow.example.com', 'A');
  const settled = pending.then(
    () => 'answered',
    () => 'failed',
  );
  while (dns.queries.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const started = Date.now();
  await dns.close();
  assert.ok(Date.now() - started < 1000, `close took ${Date.now() - started} ms`);
  assert.equal(await settled, 'failed');
});
