import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettableResolver } from '../../../src/mta/dns-servers';
import { applyDnsServers, parseDnsServerList } from '../../../src/mta/dns-servers';
import { serverAddress } from '../../../src/shared/dns-resolver';
import { DNS_ERROR, NO_PTR, reverseLookup, reverseName } from '../../../src/mta/reverse-dns';

describe('DNS servers', () => {
  it('formats ip:port, IPv6 in brackets, and refuses names', () => {
    assert.equal(serverAddress({ host: '10.0.0.2', port: 53 }), '10.0.0.2:53');
    assert.equal(serverAddress({ host: '2001:db8::1', port: 5353 }), '[2001:db8::1]:5353');
  });

  it('parses the rendered mailroom.ini value', () => {
    assert.deepEqual(parseDnsServerList('127.0.0.1:5353, [::1]:53'), ['127.0.0.1:5353', '[::1]:53']);
    assert.deepEqual(parseDnsServerList(''), []);
    assert.deepEqual(parseDnsServerList(undefined), []);
    assert.throws(() => parseDnsServerList(42), /expected a string/);
  });

  it('points every resolver at the servers, and none when there are none', () => {
    const seen: string[][] = [];
    const resolver: SettableResolver = { setServers: (s) => void seen.push([...s]) };
    assert.equal(applyDnsServers([], [resolver]), false);
    assert.deepEqual(seen, []);
    assert.equal(applyDnsServers(['127.0.0.1:53'], [resolver, resolver]), true);
    assert.deepEqual(seen, [['127.0.0.1:53'], ['127.0.0.1:53']]);
  });
});

describe('reverseName', () => {
  it('builds in-addr.arpa names', () => {
    assert.equal(reverseName('127.0.0.1'), '1.0.0.127.in-addr.arpa');
    assert.equal(reverseName('192.0.2.10'), '10.2.0.192.in-addr.arpa');
    assert.equal(reverseName('::ffff:192.0.2.10'), '10.2.0.192.in-addr.arpa');
  });

  it('builds ip6.arpa names with all 32 nibbles (RFC 3596 §2.5)', () => {
    assert.equal(reverseName('::1'), `1.${'0.'.repeat(31)}ip6.arpa`);
    assert.equal(
      reverseName('2001:db8::567:89ab'),
      'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
    assert.equal(reverseName('64:ff9b::192.0.2.1'), reverseName('64:ff9b::c000:201'));
  });

  it('refuses what is not an address', () => {
    assert.throws(() => reverseName('example.com'), /not an IP address/);
  });
});

describe('reverseLookup', () => {
  const answering = (result: string[] | { code: string }) => ({
    resolvePtr: (name: string): Promise<string[]> => {
      assert.equal(name, '1.0.0.127.in-addr.arpa');
      return Array.isArray(result)
        ? Promise.resolve(result)
        : Promise.reject(Object.assign(new Error('x'), result));
    },
  });

  it('returns the first PTR name, without a trailing dot', async () => {
    assert.equal(
      await reverseLookup(answering(['client.example.', 'other.example']), '127.0.0.1'),
      'client.example',
    );
  });

  it('records no PTR as NXDOMAIN and a failed lookup as DNSERROR, as Haraka does', async () => {
    assert.equal(await reverseLookup(answering({ code: 'ENOTFOUND' }), '127.0.0.1'), NO_PTR);
    assert.equal(await reverseLookup(answering({ code: 'ENODATA' }), '127.0.0.1'), NO_PTR);
    assert.equal(await reverseLookup(answering([]), '127.0.0.1'), NO_PTR);
    assert.equal(await reverseLookup(answering({ code: 'ETIMEOUT' }), '127.0.0.1'), DNS_ERROR);
    assert.equal(await reverseLookup(answering({ code: 'ESERVFAIL' }), '127.0.0.1'), DNS_ERROR);
  });
});
