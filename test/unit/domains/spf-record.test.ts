import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  delegations,
  includesHost,
  isSpfRecord,
  mergedSpf,
  parseSpf,
} from '../../../src/modules/domains/spf-record';

const HOST = '_spf.mail.mailroom.net';

function terms(txt: string) {
  const parsed = parseSpf(txt);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  return parsed.terms;
}

describe('SPF records', () => {
  it('recognises SPF v1 only', () => {
    assert.equal(isSpfRecord('v=spf1 -all'), true);
    assert.equal(isSpfRecord('V=SPF1'), true);
    assert.equal(isSpfRecord('v=spf10 -all'), false);
    assert.equal(isSpfRecord('spf2.0/pra include:x -all'), false);
  });

  it('accepts real-world records with any case, spacing and every mechanism', () => {
    const t = terms(
      '  v=spf1   a mx/24 a:mail.example.com/24//64 ip4:192.0.2.0/24 ip6:2001:db8::/32 ptr exists:%{i}.x.example.com ' +
        `include:_spf.google.com INCLUDE:${HOST.toUpperCase()}. ?all exp=explain.example.com unknown=thing`,
    );
    assert.equal(includesHost(t, HOST), true);
  });

  it('does not count an include that does not pass', () => {
    assert.equal(includesHost(terms(`v=spf1 -include:${HOST} ~all`), HOST), false);
    assert.equal(includesHost(terms(`v=spf1 ~include:${HOST} ~all`), HOST), false);
    assert.equal(includesHost(terms(`v=spf1 +include:${HOST} ~all`), HOST), true);
  });

  it('finds malformed terms', () => {
    for (const bad of [
      'v=spf1 include: ~all',
      'v=spf1 include ~all',
      'v=spf1 ip4:300.1.1.1 ~all',
      'v=spf1 ip4:192.0.2.0/33 ~all',
      'v=spf1 ip6:nothex ~all',
      'v=spf1 allow ~all',
      'v=spf1 all:x',
      'v=spf1 redirect= ~all',
      'v=spf1 redirect=a.example redirect=b.example',
      'v=spf1 a:/24',
    ]) {
      const parsed = parseSpf(bad);
      assert.equal(parsed.ok, false, bad);
    }
  });

  it('follows includes and a redirect only when no "all" overrides it', () => {
    assert.deepEqual(delegations(terms('v=spf1 include:a.example -include:b.example redirect=c.example')), [
      'a.example',
      'c.example',
    ]);
    assert.deepEqual(delegations(terms('v=spf1 include:a.example redirect=c.example ~all')), ['a.example']);
  });

  it('merges several records into one that includes the service', () => {
    assert.equal(
      mergedSpf(
        ['v=spf1 include:_spf.google.com -all', 'v=spf1 ip4:192.0.2.1 include:_spf.google.com ~all'],
        HOST,
      ),
      `v=spf1 include:_spf.google.com ip4:192.0.2.1 include:${HOST} -all`,
    );
    assert.equal(
      mergedSpf(['v=spf1 redirect=_spf.example.com'], HOST),
      `v=spf1 include:_spf.example.com include:${HOST} ~all`,
    );
    assert.equal(mergedSpf([`v=spf1 include:${HOST} -all`], HOST), `v=spf1 include:${HOST} -all`);
    assert.equal(mergedSpf(['v=spf1 ip4:999.1.1.1 mx ~all'], HOST), `v=spf1 mx include:${HOST} ~all`);
  });
});
