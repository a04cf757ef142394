import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reverseName } from '../../../../src/cli/doctor/dns-check';

describe('doctor: DNS', () => {
  it('builds reverse names for IPv4 and IPv6', () => {
    assert.equal(reverseName('203.0.113.7'), '7.113.0.203.in-addr.arpa');
    assert.equal(
      reverseName('2001:db8::1'),
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
  });
});
