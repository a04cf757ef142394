import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeDns } from '../../helpers/dns-server';
import { startDnsServer } from '../../helpers/dns-server';
import type { DnsResolver } from '../../../src/shared/dns-resolver';
import { classifyDnsError, createDnsResolver, serverAddress } from '../../../src/shared/dns-resolver';

describe('dns resolver', () => {
  let dns: FakeDns;
  let resolver: DnsResolver;
  before(async () => {
    dns = await startDnsServer();
    resolver = createDnsResolver({
      servers: [{ host: dns.host, port: dns.port }],
      timeoutMs: 200,
      tries: 1,
      maxTimeoutMs: 200,
    });
  });
  after(async () => {
    await dns.close();
  });

  it('queries only the configured servers', async () => {
    assert.deepEqual(resolver.servers, [dns.address]);
    dns.queries.length = 0;
    dns.set('only.example.com', 'A', ['192.0.2.1']);
    assert.deepEqual(await resolver.a('only.example.com'), { status: 'found', records: ['192.0.2.1'] });
    assert.deepEqual(dns.queries, [{ name: 'only.example.com', type: 'A', transport: 'udp' }]);
  });

  it('joins the character-strings of each TXT record, one string per record', async () => {
    dns.set('txt.example.com', 'TXT', [['v=DKIM1; k=rsa; ', 'p=AAAA', 'BBBB'], 'second record']);
    const long = 'x'.repeat(700);
    dns.set('long.example.com', 'TXT', [long]);
    assert.deepEqual(await resolver.txt('txt.example.com'), {
      status: 'found',
      records: ['v=DKIM1; k=rsa; p=AAAABBBB', 'second record'],
    });
    assert.deepEqual(await resolver.txt('long.example.com'), { status: 'found', records: [long] });
  });

  it('tells NXDOMAIN from NODATA, including an empty non-terminal and an alias without the type', async () => {
    dns.set('sel._domainkey.nodata.example.com', 'TXT', ['v=DKIM1; p=']);
    dns.set('alias.nodata.example.com', 'CNAME', ['target.nodata.example.com']);
    dns.set('target.nodata.example.com', 'A', ['192.0.2.7']);
    assert.deepEqual(await resolver.txt('missing.example.net'), { status: 'nxdomain' });
    assert.deepEqual(await resolver.mx('sel._domainkey.nodata.example.com'), { status: 'nodata' });
    assert.deepEqual(await resolver.txt('_domainkey.nodata.example.com'), { status: 'nodata' });
    assert.deepEqual(await resolver.txt('alias.nodata.example.com'), { status: 'nodata' });
    assert.deepEqual(await resolver.cname('alias.nodata.example.com'), {
      status: 'found',
      records: ['target.nodata.example.com'],
    });
  });

  it('reports SERVFAIL, REFUSED and timeouts as failures, not as missing records', async () => {
    dns.fail('servfail.example.com', 'SERVFAIL');
    dns.fail('refused.example.com', 'REFUSED');
    dns.fail('timeout.example.com', 'TIMEOUT');
    assert.deepEqual(await resolver.txt('servfail.example.com'), {
      status: 'failed',
      reason: 'SERVFAIL',
      code: 'ESERVFAIL',
    });
    assert.deepEqual(await resolver.mx('refused.example.com'), {
      status: 'failed',
      reason: 'REFUSED',
      code: 'EREFUSED',
    });
    const started = Date.now();
    assert.deepEqual(await resolver.cname('timeout.example.com'), {
      status: 'failed',
      reason: 'TIMEOUT',
      code: 'ETIMEOUT',
    });
    assert.ok(Date.now() - started < 2_000, 'the configured timeout bounds the wait');
  });

  it('gives mailauth dns.promises.resolve shapes and ENOTFOUND / ENODATA errors', async () => {
    dns.set('mail.example.org', 'TXT', [['v=spf1 ', '-all']]);
    dns.set('mail.example.org', 'MX', [{ exchange: 'mx.example.org', priority: 10 }]);
    assert.deepEqual(await resolver.mailauth('mail.example.org', 'TXT'), [['v=spf1 ', '-all']]);
    const mx = (await resolver.mailauth('mail.example.org', 'MX')) as unknown as {
      exchange: string;
      priority: number;
    }[];
    assert.deepEqual(
      mx.map((r) => [r.exchange, r.priority]),
      [['mx.example.org', 10]],
    );
    await assert.rejects(resolver.mailauth('nothing.example.org', 'TXT'), { code: 'ENOTFOUND' });
    await assert.rejects(resolver.mailauth('mail.example.org', 'A'), { code: 'ENODATA' });
  });

  it('maps unexpected errors to failures and formats IPv6 servers', () => {
    assert.deepEqual(classifyDnsError(new Error('boom')), {
      status: 'failed',
      reason: 'ERROR',
      code: 'ERROR',
    });
    assert.deepEqual(classifyDnsError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), {
      status: 'failed',
      reason: 'ERROR',
      code: 'ECONNREFUSED',
    });
    assert.equal(serverAddress({ host: '::1', port: 5353 }), '[::1]:5353');
    assert.equal(serverAddress({ host: '10.0.0.1', port: 53 }), '10.0.0.1:53');
    assert.throws(
      () => createDnsResolver({ servers: [{ host: 'dns.example.com', port: 53 }] }),
      /DNS_SERVERS must list IP addresses/,
    );
  });
});
