import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateReverseDns, isPublicIp } from '../../../../src/cli/doctor/reverse-dns-check';

describe('doctor: reverse DNS', () => {
  it('tells public addresses from private, loopback, link-local and CGNAT ones', () => {
    for (const ip of ['203.0.113.7', '8.8.8.8', '2001:db8::1', '::ffff:198.51.100.2'])
      assert.equal(isPublicIp(ip), true, ip);
    for (const ip of ['10.1.2.3', '172.20.0.1', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1'])
      assert.equal(isPublicIp(ip), false, ip);
    for (const ip of ['::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', 'not-an-ip'])
      assert.equal(isPublicIp(ip), false, ip);
  });

  it('compares reverse DNS with MAIL_HOSTNAME', () => {
    const confirmed = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: ['203.0.113.7'],
      local: ['203.0.113.7'],
      ptr: [{ ip: '203.0.113.7', names: ['MX.example.test.'] }],
    });
    assert.equal(confirmed.status, 'ok');
    assert.match(confirmed.summary, /forward-confirmed/);

    const wrong = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: ['203.0.113.7'],
      local: [],
      ptr: [{ ip: '203.0.113.7', names: ['host-7.provider.test'] }],
    });
    assert.equal(wrong.status, 'warn');
    assert.match(wrong.hints.join(' '), /Set the PTR of 203\.0\.113\.7 to mx\.example\.test/);

    const none = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: [],
      local: ['198.51.100.9'],
      ptr: [{ ip: '198.51.100.9', names: [], problem: 'nxdomain' }],
    });
    assert.equal(none.status, 'warn');
    assert.match(none.hints.join(' '), /Publish an A/);
    assert.match(none.hints.join(' '), /hosting provider/);

    const nat = evaluateReverseDns({
      mailHostname: 'mx.example.test',
      forward: ['203.0.113.7'],
      local: ['198.51.100.9'],
      ptr: [
        { ip: '203.0.113.7', names: ['mx.example.test'] },
        { ip: '198.51.100.9', names: ['mx.example.test'] },
      ],
    });
    assert.equal(nat.status, 'warn');
    assert.match(nat.hints.join(' '), /--public-ip/);
  });
});
