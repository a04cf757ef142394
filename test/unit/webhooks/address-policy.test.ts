import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../../src/config';
import type { AddressCategory } from '../../../src/mail/address-guard';
import {
  classifyAddress,
  createAddressGuard,
  embeddedIpv4,
  guardFromConfig,
} from '../../../src/mail/address-guard';

describe('webhook SSRF guard: address classification', () => {
  const cases: [string, AddressCategory][] = [
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['2002:7f00:1::', 'reserved'],
    ['2001::1', 'reserved'],
    // IPv4-mapped and NAT64 addresses are judged by the IPv4 address inside.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['::127.0.0.1', 'reserved'],
  ];
  for (const [ip, category] of cases) {
    it(`${ip} is ${category}`, () => assert.equal(classifyAddress(ip), category));
  }

  it('reads the IPv4 address inside mapped and NAT64 forms only', () => {
    assert.equal(embeddedIpv4('::ffff:1.2.3.4'), '1.2.3.4');
    assert.equal(embeddedIpv4('::FFFF:0102:0304'), '1.2.3.4');
    assert.equal(embeddedIpv4('64:ff9b::1.2.3.4'), '1.2.3.4');
    assert.equal(embeddedIpv4('2001:db8::1'), undefined);
    assert.equal(embeddedIpv4('1.2.3.4'), undefined);
  });
});

describe('webhook SSRF guard: policy', () => {
  it('by default refuses everything but public addresses, naming the category', () => {
    const guard = createAddressGuard({ allowPrivate: false, allowedCidrs: [] });
    assert.equal(guard.check('93.184.216.34').allowed, true);
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      const verdict = guard.check(ip);
      assert.equal(verdict.allowed, false, ip);
      if (!verdict.allowed) assert.match(verdict.reason, new RegExp(`${ip.replace(/\./g, '\\.')} is a`));
    }
  });

  it('WEBHOOK_ALLOW_PRIVATE opens private ranges but never metadata, unspecified or multicast', () => {
    const guard = createAddressGuard({ allowPrivate: true, allowedCidrs: [] });
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.0.1',
      '169.254.1.1',
      '100.64.0.1',
      'fd00::1',
      '::1',
    ]) {
      assert.equal(guard.check(ip).allowed, true, ip);
    }
    for (const ip of [
      '169.254.169.254',
      '::ffff:169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      assert.equal(guard.check(ip).allowed, false, ip);
    }
  });

  it('WEBHOOK_ALLOWED_CIDRS opens exactly the listed networks, mapped IPv6 spellings included', () => {
    const config = parseConfig({ WEBHOOK_ALLOWED_CIDRS: '10.1.0.0/16, 127.0.0.1, fd00:1::/32' });
    assert.deepEqual(config.webhookAllowedCidrs?.[1], { address: '127.0.0.1', prefix: 32, family: 'ipv4' });
    const guard = guardFromConfig(config);
    assert.equal(guard.check('10.1.200.3').allowed, true);
    assert.equal(guard.check('10.2.0.1').allowed, false);
    assert.equal(guard.check('127.0.0.1').allowed, true);
    assert.equal(guard.check('::ffff:127.0.0.1').allowed, true);
    assert.equal(guard.check('127.0.0.2').allowed, false);
    assert.equal(guard.check('fd00:1:2::3').allowed, true);
    assert.equal(guard.check('fd00:2::3').allowed, false);
  });

  it('config refuses malformed CIDRs and defaults to the guard on', () => {
    assert.equal(parseConfig({}).webhookAllowPrivate, false);
    assert.equal(parseConfig({}).webhookAllowedCidrs, undefined);
    assert.equal(parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate, true);
    for (const bad of [
      '10.0.0.0/33',
      'example.com',
      '10.0.0.0/',
      '10.0.0.0/8/1',
      'fd00::/129',
      '1.2.3.4/x',
    ]) {
      assert.throws(() => parseConfig({ WEBHOOK_ALLOWED_CIDRS: bad }), /WEBHOOK_ALLOWED_CIDRS/, bad);
    }
  });
});
