import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StsDiscovery } from '../../../src/mta/mta-sts-discovery';
import { mxMatches, parseStsPolicy, parseStsRecord } from '../../../src/mta/mta-sts-policy';
import { stsRoute } from '../../../src/mta/mta-sts-route';

describe('MTA-STS TXT record (RFC 8461 §3.1)', () => {
  it('reads the id of the one STSv1 record, ignoring other TXT records', () => {
    assert.equal(parseStsRecord([['v=STSv1; id=20160831085700Z;'], ['v=spf1 -all']]), '20160831085700Z');
    assert.equal(parseStsRecord([['v=STSv1; ', 'id=abc123']]), 'abc123');
  });
  it('no usable record: none, two STSv1 records, a bad id', () => {
    assert.equal(parseStsRecord([]), undefined);
    assert.equal(parseStsRecord([['v=STSv1; id=a;'], ['v=STSv1; id=b;']]), undefined);
    assert.equal(parseStsRecord([['v=STSv1; id=not-alnum;']]), undefined);
    assert.equal(parseStsRecord([['v=STSv1; id=' + 'x'.repeat(33)]]), undefined);
  });
});

describe('MTA-STS policy file (§3.2)', () => {
  const RFC_EXAMPLE =
    'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n';
  it('parses the RFC example', () => {
    assert.deepEqual(parseStsPolicy(RFC_EXAMPLE, 'id1'), {
      id: 'id1',
      mode: 'enforce',
      mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'],
      maxAge: 604800,
    });
  });
  it('caps max_age at a year; mode none needs no mx', () => {
    assert.equal(
      parseStsPolicy('version: STSv1\nmode: none\nmax_age: 99999999999\n', 'i')?.maxAge,
      undefined,
    );
    assert.equal(parseStsPolicy('version: STSv1\nmode: none\nmax_age: 999999999\n', 'i')?.maxAge, 31_557_600);
  });
  it('refuses a wrong version or mode, a missing max_age, enforce without mx', () => {
    for (const bad of [
      'version: STSv2\nmode: enforce\nmx: a.b\nmax_age: 1\n',
      'version: STSv1\nmode: strict\nmx: a.b\nmax_age: 1\n',
      'version: STSv1\nmode: enforce\nmx: a.b\n',
      'version: STSv1\nmode: enforce\nmax_age: 1\n',
    ])
      assert.equal(parseStsPolicy(bad, 'i'), undefined, bad);
  });
});

describe('MX matching (§4.1)', () => {
  it('exact names and one-label wildcards, case and trailing dot ignored', () => {
    assert.equal(mxMatches('Mail.Example.com.', ['mail.example.com']), true);
    assert.equal(mxMatches('mx1.example.net', ['*.example.net']), true);
    assert.equal(mxMatches('a.mx1.example.net', ['*.example.net']), false);
    assert.equal(mxMatches('example.net', ['*.example.net']), false);
    assert.equal(mxMatches('evil.test', ['mail.example.com']), false);
  });
});

describe('stsRoute', () => {
  const targets = [
    { exchange: '192.0.2.1', from_dns: 'mx1.example.net' },
    { exchange: '192.0.2.2', from_dns: 'other.test' },
  ];
  const policy = { id: 'i', mode: 'enforce' as const, mx: ['*.example.net'], maxAge: 60 };
  it('enforce keeps the matching MX only', () => {
    assert.deepEqual(stsRoute('example.net', policy, targets), { kind: 'enforce', targets: [targets[0]] });
  });
  it('enforce with nothing matching defers, naming the policy', () => {
    const r = stsRoute('example.net', { ...policy, mx: ['mail.example.com'] }, targets);
    assert.equal(r.kind, 'defer');
    assert.match(
      r.kind === 'defer' ? r.reason : '',
      /allows only MX mail\.example\.com; none of mx1\.example\.net, other\.test/,
    );
  });
  it('testing keeps every MX and lists the would-be refusals; no policy is open', () => {
    assert.deepEqual(stsRoute('example.net', { ...policy, mode: 'testing' }, targets), {
      kind: 'testing',
      targets,
      violations: ['other.test'],
    });
    assert.deepEqual(stsRoute('example.net', undefined, targets), { kind: 'open', targets });
  });
});

describe('StsDiscovery cache (§3.3, §5.1)', () => {
  const POLICY = 'version: STSv1\nmode: enforce\nmx: mx.example.net\nmax_age: 60\n';
  function setUp(txt: () => Promise<string[][]>) {
    let now = 0;
    let fetches = 0;
    const d = new StsDiscovery({
      resolveTxt: txt,
      fetchPolicy: () => {
        fetches++;
        return Promise.resolve(POLICY);
      },
      now: () => now,
    });
    return { d, fetches: () => fetches, advance: (ms: number) => (now += ms) };
  }

  it('fetches once per id while max_age lasts, again after it', async () => {
    const s = setUp(() => Promise.resolve([['v=STSv1; id=one']]));
    assert.equal((await s.d.lookup('Example.NET')).source, 'fetched');
    assert.equal((await s.d.lookup('example.net')).source, 'cache');
    assert.equal(s.fetches(), 1);
    s.advance(61_000);
    assert.equal((await s.d.lookup('example.net')).source, 'fetched');
    assert.equal(s.fetches(), 2);
  });

  it('a vanished TXT record keeps the unexpired cached policy', async () => {
    let record: string[][] = [['v=STSv1; id=one']];
    const s = setUp(() =>
      record.length > 0
        ? Promise.resolve(record)
        : Promise.reject(Object.assign(new Error('x'), { code: 'ENODATA' })),
    );
    await s.d.lookup('example.net');
    record = [];
    const found = await s.d.lookup('example.net');
    assert.equal(found.source, 'cache');
    assert.equal(found.policy?.mode, 'enforce');
  });

  it('no record and nothing cached: no policy', async () => {
    const s = setUp(() => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' })));
    assert.deepEqual(await s.d.lookup('example.net'), { policy: undefined, source: 'none' });
  });
});
