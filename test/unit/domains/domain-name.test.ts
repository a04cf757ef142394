import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkSendingDomain,
  normalizeDomainName,
  organizationalDomain,
} from '../../../src/modules/domains/domain-name';

const OWN = ['mail.mailroom.net', '_spf.mail.mailroom.net'];

function reason(input: string): string | undefined {
  const r = checkSendingDomain(input, OWN);
  return r.ok ? undefined : r.reason;
}

describe('sending domain names', () => {
  it('normalizes case, whitespace, the root dot and IDNs', () => {
    assert.equal(normalizeDomainName('  Example.COM. '), 'example.com');
    assert.equal(normalizeDomainName('bücher.de'), 'xn--bcher-kva.de');
    assert.equal(normalizeDomainName('user@example.com'), '');
    assert.deepEqual(checkSendingDomain('News.Example.co.uk.', OWN), {
      ok: true,
      domain: 'news.example.co.uk',
    });
    assert.deepEqual(checkSendingDomain('bücher.de', OWN), { ok: true, domain: 'xn--bcher-kva.de' });
    assert.deepEqual(checkSendingDomain('x.github.io', OWN), { ok: true, domain: 'x.github.io' });
  });

  it('refuses IP literals', () => {
    for (const ip of ['192.0.2.1', '[192.0.2.1]', '::1', '[2001:db8::1]'])
      assert.match(reason(ip) ?? '', /IP address/);
  });

  it('refuses public suffixes themselves and names under no public suffix', () => {
    assert.match(reason('co.uk') ?? '', /public suffix/);
    assert.match(reason('github.io') ?? '', /public suffix/);
    assert.match(reason('com') ?? '', /two labels/);
    assert.match(reason('printer.local') ?? '', /not a public top-level domain/);
    assert.match(reason('app.test') ?? '', /not a public top-level domain/);
    assert.match(reason('localhost') ?? '', /two labels/);
  });

  it("refuses the appliance's own host names and names under them", () => {
    assert.match(reason('mail.mailroom.net') ?? '', /own host name/);
    assert.match(reason('bounce.mail.mailroom.net') ?? '', /own host name/);
    assert.equal(reason('mailroom.net'), undefined, "the operator's own apex stays usable");
  });

  it('refuses malformed names', () => {
    for (const bad of [
      '',
      'exa mple.com',
      '-bad.com',
      'bad-.com',
      'under_score.com',
      '*.example.com',
      'a..b.com',
      'user@example.com',
      'http://example.com',
    ]) {
      assert.ok(reason(bad) !== undefined, bad);
    }
    assert.match(reason(`${'a'.repeat(60)}.`.repeat(3) + `${'b'.repeat(60)}.com`) ?? '', /longer than/);
    assert.match(reason(`${'a'.repeat(64)}.com`) ?? '', /not a valid label/);
  });

  it('finds the organizational domain', () => {
    assert.equal(organizationalDomain('news.example.co.uk'), 'example.co.uk');
    assert.equal(organizationalDomain('example.com'), 'example.com');
  });
});
