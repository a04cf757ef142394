// The one rule for "a public fully qualified name" (MAIL_HOSTNAME at boot, in `ctl doctor`, in
// the DNS records the API hands out and on the dashboard's banner).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mailHostnameWarning } from '../../../src/config';
import { domainRecords, recordUsability } from '../../../src/modules/domains/dns-records';
import { publicDnsNameProblem } from '../../../src/shared/public-dns-name';

describe('publicDnsNameProblem', () => {
  it('accepts public names, in any case, with or without the root dot', () => {
    for (const name of [
      'mail.example.com',
      'MX.Example.ORG.',
      'mx.mailroom-appliance.net',
      'a.b.c.co.uk',
      'mail.xn--p1ai',
      '_spf.mail.example.com',
    ])
      assert.equal(publicDnsNameProblem(name), undefined, name);
  });

  it('refuses a single label: the OS host name of a VM or a container', () => {
    for (const name of ['vm', 'laptop', '3f2a9c1b0d4e', 'vm.', '_spf.vm'])
      assert.match(publicDnsNameProblem(name) ?? '', /single label/, name);
  });

  it('refuses IP literals', () => {
    for (const name of ['192.0.2.10', '10.0.0.1', '::1', '[2001:db8::1]'])
      assert.match(publicDnsNameProblem(name) ?? '', /IP address/, name);
  });

  it('refuses reserved, private-use and local-network top-level names', () => {
    for (const [name, why] of [
      ['localhost', /single label/],
      ['mail.localhost', /loopback/],
      ['vm.local', /multicast-DNS/],
      ['box.internal', /private-use/],
      ['nas.lan', /local-network/],
      ['router.home', /local-network/],
      ['gw.home.arpa', /infrastructure/],
      ['mx.mailroom.test', /testing/],
      ['mx.invalid', /never valid/],
      ['mail.example', /documentation/],
      ['vm.localdomain', /local-network/],
    ] as const)
      assert.match(publicDnsNameProblem(name) ?? '', why, name);
  });

  it('refuses what is not a name at all', () => {
    assert.match(publicDnsNameProblem('') ?? '', /empty/);
    assert.match(publicDnsNameProblem('a..com') ?? '', /empty label/);
    assert.match(publicDnsNameProblem('host.123') ?? '', /not a top-level domain/);
    assert.match(publicDnsNameProblem('host.c') ?? '', /not a top-level domain/);
  });

  it('is the rule of the boot and doctor warning', () => {
    assert.equal(
      mailHostnameWarning({ mailHostname: 'mail.example.net', spfIncludeHost: '_spf.x' }),
      undefined,
    );
    const warned = mailHostnameWarning({ mailHostname: 'box.internal', spfIncludeHost: '_spf.box.internal' });
    assert.match(
      warned ?? '',
      /^MAIL_HOSTNAME "box.internal" is not a public fully qualified domain name \(.internal is/,
    );
    assert.match(warned ?? '', /include:_spf\.box\.internal/);
  });
});

describe('DNS records: usable only when the host they name is public', () => {
  const subject = {
    domain: 'news.example.com',
    dkimSelector: 'mr1',
    dkimPublicKey: 'AAAA',
    receiveEnabled: true,
    inboundLabel: 'inbox',
  };
  const byPurpose = (hosts: Parameters<typeof domainRecords>[1]) =>
    Object.fromEntries(domainRecords(subject, hosts).map((r) => [r.purpose, r]));

  it('MAIL_HOSTNAME left as the host name: spf, return_path and mx cannot work; dkim and dmarc can', () => {
    const r = byPurpose({ spfIncludeHost: '_spf.vm', bounceHost: 'vm', mxHost: 'vm' });
    for (const purpose of ['spf', 'return_path', 'mx']) {
      assert.equal(r[purpose]?.usable, false, purpose);
      assert.match(
        r[purpose]?.unusableReason ?? '',
        /not a public DNS name \("vm" is a single label/,
        purpose,
      );
      assert.match(r[purpose]?.unusableReason ?? '', /Set MAIL_HOSTNAME/, purpose);
    }
    assert.match(r.spf?.unusableReason ?? '', /SPF_INCLUDE_HOST/);
    assert.match(r.mx?.unusableReason ?? '', /MX_HOST/);
    for (const purpose of ['dkim', 'dmarc']) {
      assert.equal(r[purpose]?.usable, true, purpose);
      assert.equal(r[purpose]?.unusableReason, undefined, purpose);
    }
  });

  it('a public name: every record usable, no reason', () => {
    const r = byPurpose({
      spfIncludeHost: '_spf.mail.example.net',
      bounceHost: 'mail.example.net',
      mxHost: 'mail.example.net',
    });
    for (const record of Object.values(r))
      assert.deepEqual([record.usable, record.unusableReason], [true, undefined]);
  });

  it('judges each host on its own: an explicit SPF_INCLUDE_HOST is fine while BOUNCE_HOST is not', () => {
    const hosts = { spfIncludeHost: 'spf.example.net', bounceHost: 'bounce.lan', mxHost: 'mx.example.net' };
    assert.equal(recordUsability('spf', hosts).usable, true);
    assert.equal(recordUsability('return_path', hosts).usable, false);
    assert.match(recordUsability('return_path', hosts).unusableReason ?? '', /bounce\.lan.*BOUNCE_HOST/);
    assert.equal(recordUsability('mx', hosts).usable, true);
  });
});
