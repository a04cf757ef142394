import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { PublishedRecord } from '../helpers/dns-fixtures';
import { publish, recordOf } from '../helpers/dns-fixtures';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

interface Check {
  verified: boolean;
  code?: string;
  message?: string;
  found?: string[];
  expected?: string;
}

interface Verification {
  verified: boolean;
  domain: string;
  status: string;
  spf: Check;
  dkim: Check;
  dmarc: Check;
  returnPath: Check;
  mx?: Check;
  required: Record<string, boolean>;
  nextSteps?: string[];
}

interface DomainBody {
  id: string;
  domain: string;
  status: string;
  records: PublishedRecord[];
}

const MAIL_HOSTNAME = 'mx.mailroom-appliance.net';
const SPF_INCLUDE = `_spf.${MAIL_HOSTNAME}`;

/** The p= of a DKIM record value. */
function keyOf(records: readonly PublishedRecord[]): string {
  return recordOf(records, 'dkim').value.replace(/^.*p=/, '');
}

function otherKey(): string {
  const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

describe('domain verification against a fake authoritative DNS server', () => {
  let dns: FakeDns;
  let app: Appliance;
  let key: string;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ processes: ['api'], env: { DNS_SERVERS: dns.address, MAIL_HOSTNAME } });
    key = (await app.api.registerWithKey()).apiKey;
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  async function add(name: string, token = key): Promise<DomainBody> {
    const res = await app.api.post<DomainBody>('/v1/domains', { token, body: { domain: name } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  async function verify(d: DomainBody, token = key): Promise<Verification> {
    const res = await app.api.post<Verification>(`/v1/domains/${d.id}/verify`, { token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  it('nothing published (NXDOMAIN): MISSING_RECORD for every check, with expected values and next steps', async () => {
    const d = await add('nothing.example.com');
    const r = await verify(d);
    assert.equal(r.verified, false);
    assert.equal(r.domain, 'nothing.example.com');
    assert.equal(r.status, 'PENDING');
    assert.deepEqual(r.required, { spf: true, dkim: true, dmarc: false, returnPath: false });
    for (const check of [r.spf, r.dkim, r.dmarc, r.returnPath]) {
      assert.equal(check.verified, false);
      assert.equal(check.code, 'MISSING_RECORD');
      assert.deepEqual(check.found, []);
      assert.ok((check.message ?? '').length > 0);
    }
    assert.equal(r.spf.expected, `v=spf1 include:${SPF_INCLUDE} ~all`);
    assert.equal(r.dkim.expected, recordOf(d.records, 'dkim').value);
    assert.equal(r.returnPath.expected, MAIL_HOSTNAME);
    assert.equal(r.mx, undefined);
    assert.equal(r.nextSteps?.length, 4);
    assert.match(r.nextSteps?.[0] ?? '', /TXT record at nothing\.example\.com/);
    // Every query went to the fake server.
    const names = new Set(dns.queries.map((q) => q.name));
    for (const rec of d.records) assert.ok(names.has(rec.name), rec.name);
  });

  it('all records published: verified, status VERIFIED, no next steps', async () => {
    const d = await add('good.example.com');
    publish(dns, d.records);
    const r = await verify(d);
    assert.equal(r.verified, true, JSON.stringify(r));
    assert.equal(r.status, 'VERIFIED');
    for (const check of [r.spf, r.dkim, r.dmarc, r.returnPath]) assert.deepEqual(check, { verified: true });
    assert.equal(r.nextSteps, undefined);
    const got = await app.api.get<{ status: string; verifiedAt: string | null }>(`/v1/domains/${d.id}`, {
      token: key,
    });
    assert.equal(got.body.status, 'VERIFIED');
    assert.ok(got.body.verifiedAt);
  });

  it('TXT records split into several strings are joined before checking', async () => {
    const d = await add('split.example.com');
    const k = keyOf(d.records);
    // Cut at awkward places: inside "v=DKIM1", inside the key, and an SPF split mid-include.
    const chunks = ['v=DK', 'IM1; k=rsa; p=', k.slice(0, 100), k.slice(100, 350), k.slice(350)];
    dns.set(recordOf(d.records, 'dkim').name, 'TXT', [chunks]);
    dns.set('split.example.com', 'TXT', [['v=spf1 include:_spf.mx.mail', 'room-appliance.net ~all']]);
    const r = await verify(d);
    assert.deepEqual(r.dkim, { verified: true });
    assert.deepEqual(r.spf, { verified: true });
    assert.equal(r.verified, true);
  });

  it('accepts real-world quirks: case, whitespace, extra DKIM tags, other SPF includes, inherited DMARC', async () => {
    const d = await add('news.quirks-example.com');
    const k = keyOf(d.records);
    const spaced = `${k.slice(0, 60)} ${k.slice(60, 200)}  ${k.slice(200)}`;
    dns.set(recordOf(d.records, 'dkim').name, 'TXT', [
      `  V=DKIM1 ;  K=RSA; t=y; h=sha256 ; s=email; p=${spaced} ;`,
    ]);
    dns.set('news.quirks-example.com', 'TXT', [
      'google-site-verification=abc123',
      `V=SPF1 ip4:192.0.2.0/24 include:_spf.google.com INCLUDE:${SPF_INCLUDE.toUpperCase()}. -all`,
    ]);
    // A subdomain without its own DMARC record is covered by the organizational domain's.
    dns.set('_dmarc.quirks-example.com', 'TXT', ['v=DMARC1;p=reject; rua=mailto:d@quirks-example.com']);
    dns.set('bounce.news.quirks-example.com', 'CNAME', [`${MAIL_HOSTNAME.toUpperCase()}.`]);
    const r = await verify(d);
    assert.equal(r.verified, true, JSON.stringify(r));
    for (const check of [r.spf, r.dkim, r.dmarc, r.returnPath]) assert.deepEqual(check, { verified: true });
  });

  it('follows the customer include that includes ours', async () => {
    const d = await add('nested.example.com');
    publish(dns, d.records, ['spf']);
    dns.set('nested.example.com', 'TXT', ['v=spf1 include:_spf.nested.example.com ~all']);
    dns.set('_spf.nested.example.com', 'TXT', [`v=spf1 ip4:192.0.2.1 include:${SPF_INCLUDE} ~all`]);
    assert.deepEqual((await verify(d)).spf, { verified: true });
  });

  it('MULTIPLE_SPF_RECORDS: two SPF records, with a merged record to publish', async () => {
    const d = await add('twospf.example.com');
    publish(dns, d.records, ['spf']);
    dns.set('twospf.example.com', 'TXT', [
      'v=spf1 include:_spf.google.com -all',
      `v=spf1 include:${SPF_INCLUDE} ~all`,
    ]);
    const r = await verify(d);
    assert.equal(r.verified, false);
    assert.equal(r.spf.code, 'MULTIPLE_SPF_RECORDS');
    assert.equal(r.spf.found?.length, 2);
    assert.equal(r.spf.expected, `v=spf1 include:_spf.google.com include:${SPF_INCLUDE} -all`);
    assert.deepEqual(r.dkim, { verified: true });
    assert.match(r.nextSteps?.[0] ?? '', /single TXT record/);
  });

  it('INCLUDE_MISSING: an SPF record that does not authorise the service', async () => {
    const d = await add('noinclude.example.com');
    publish(dns, d.records, ['spf']);
    dns.set('noinclude.example.com', 'TXT', ['v=spf1 include:_spf.google.com ~all']);
    const r = await verify(d);
    assert.equal(r.spf.code, 'INCLUDE_MISSING');
    assert.deepEqual(r.spf.found, ['v=spf1 include:_spf.google.com ~all']);
    assert.equal(r.spf.expected, `v=spf1 include:_spf.google.com include:${SPF_INCLUDE} ~all`);
    assert.equal(r.verified, false);
  });

  it('KEY_MISMATCH: the DKIM record holds another key, or a revoked one', async () => {
    const d = await add('wrongkey.example.com');
    publish(dns, d.records, ['dkim']);
    const name = recordOf(d.records, 'dkim').name;
    dns.set(name, 'TXT', [`v=DKIM1; k=rsa; p=${otherKey()}`]);
    let r = await verify(d);
    assert.equal(r.dkim.code, 'KEY_MISMATCH');
    assert.equal(r.dkim.found?.length, 1);
    assert.equal(r.dkim.expected, recordOf(d.records, 'dkim').value);
    assert.equal(r.verified, false);
    dns.set(name, 'TXT', ['v=DKIM1; k=rsa; p=']);
    r = await verify(d);
    assert.equal(r.dkim.code, 'KEY_MISMATCH');
  });

  it('INVALID_RECORD: malformed SPF, DKIM and DMARC records, and a return path pointing elsewhere', async () => {
    const d = await add('malformed.example.com');
    const k = keyOf(d.records);
    dns.set('malformed.example.com', 'TXT', [`v=spf1 include:${SPF_INCLUDE} ip4:999.1.1.1 ~all`]);
    dns.set(recordOf(d.records, 'dkim').name, 'TXT', [`v=DKIM1; k=rsa; p=${k.slice(0, 200)}`]);
    dns.set('_dmarc.malformed.example.com', 'TXT', ['v=DMARC1; p=maybe']);
    dns.set('bounce.malformed.example.com', 'CNAME', ['bounces.elsewhere.example.net']);
    const r = await verify(d);
    for (const check of [r.spf, r.dkim, r.dmarc, r.returnPath]) assert.equal(check.code, 'INVALID_RECORD');
    assert.match(r.spf.message ?? '', /999\.1\.1\.1/);
    assert.match(r.dkim.message ?? '', /cut off/);
    assert.deepEqual(r.returnPath.found, ['bounces.elsewhere.example.net']);

    dns.set(recordOf(d.records, 'dkim').name, 'TXT', ['v=DKIM1; k=rsa']);
    dns.set('malformed.example.com', 'TXT', [`v=spf1include:${SPF_INCLUDE} ~all`]);
    const again = await verify(d);
    assert.equal(again.dkim.code, 'INVALID_RECORD');
    assert.equal(again.spf.code, 'INVALID_RECORD');
  });

  it('LOOKUP_FAILED on SERVFAIL and on timeout, distinct from a missing record', async () => {
    const d = await add('flaky.example.com');
    publish(dns, d.records);
    dns.fail('flaky.example.com', 'SERVFAIL');
    const dkimName = recordOf(d.records, 'dkim').name;
    dns.fail(dkimName, 'TIMEOUT');
    const r = await verify(d);
    assert.equal(r.spf.code, 'LOOKUP_FAILED');
    assert.match(r.spf.message ?? '', /SERVFAIL/);
    assert.equal(r.dkim.code, 'LOOKUP_FAILED');
    assert.match(r.dkim.message ?? '', /TIMEOUT/);
    assert.deepEqual(r.dmarc, { verified: true });
    assert.equal(r.verified, false);
    assert.match(r.nextSteps?.join('\n') ?? '', /Retry verification/);

    // The same names answered with NXDOMAIN are MISSING_RECORD, not LOOKUP_FAILED.
    dns.unfail('flaky.example.com');
    dns.unfail(dkimName);
    dns.remove(dkimName);
    const missing = await verify(d);
    assert.equal(missing.dkim.code, 'MISSING_RECORD');
    assert.deepEqual(missing.spf, { verified: true });
  });

  it('a verified domain keeps its status through a failed lookup, and regresses when a record disappears', async () => {
    const d = await add('regress.example.com');
    publish(dns, d.records);
    assert.equal((await verify(d)).status, 'VERIFIED');

    dns.fail('regress.example.com', 'SERVFAIL');
    const blip = await verify(d);
    assert.equal(blip.verified, false);
    assert.equal(blip.spf.code, 'LOOKUP_FAILED');
    assert.equal(blip.status, 'VERIFIED', 'DNS that does not answer says nothing about the records');
    dns.unfail('regress.example.com');

    dns.remove(recordOf(d.records, 'dkim').name);
    const gone = await verify(d);
    assert.equal(gone.dkim.code, 'MISSING_RECORD');
    assert.equal(gone.status, 'FAILED');
    const line = app.lines.find((l) => l.includes('"dns_verification_regressed"') && l.includes(d.id));
    assert.ok(line, 'dns_verification_regressed logged');
    assert.equal((JSON.parse(line) as { checks: { dkim: string } }).checks.dkim, 'MISSING_RECORD');

    publish(dns, d.records, ['spf', 'dmarc', 'return_path']);
    assert.equal((await verify(d)).status, 'VERIFIED');

    // The status history (issue 19, screen 4): each change once, newest first; the blip is none.
    const history = await app.api.get<{
      data: {
        from: string | null;
        to: string;
        trigger: string;
        checks: Record<string, string> | null;
        at: string;
      }[];
    }>(`/v1/domains/${d.id}/status-history`, { token: key });
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(
      history.body.data.map((c) => [c.from, c.to, c.trigger]),
      [
        ['FAILED', 'VERIFIED', 'api'],
        ['VERIFIED', 'FAILED', 'api'],
        ['PENDING', 'VERIFIED', 'api'],
        [null, 'PENDING', 'created'],
      ],
    );
    assert.equal(history.body.data[1]?.checks?.dkim, 'MISSING_RECORD');
    assert.equal(history.body.data[3]?.checks, null);
    const times = history.body.data.map((c) => Date.parse(c.at));
    assert.deepEqual(
      [...times].sort((a, b) => b - a),
      times,
    );
    const other = await app.api.register();
    const foreign = await app.api.get(`/v1/domains/${d.id}/status-history`, { token: other.token });
    assert.equal(foreign.status, 404);
  });

  it('with receiving on, the MX record is checked and reported (not required to send)', async () => {
    const d = await add('inbound.example.com');
    publish(dns, d.records);
    const patched = await app.api.patch<DomainBody>(`/v1/domains/${d.id}`, {
      token: key,
      body: { receiveEnabled: true },
    });
    let r = await verify(patched.body);
    assert.equal(r.verified, true);
    assert.equal(r.required.mx, false);
    assert.equal(r.mx?.code, 'MISSING_RECORD');
    publish(
      dns,
      patched.body.records.filter((x) => x.purpose === 'mx'),
    );
    r = await verify(patched.body);
    assert.deepEqual(r.mx, { verified: true });
  });

  it('a name verified on one account cannot be verified by another without proving its own key', async () => {
    const d = await add('shared.example.com');
    publish(dns, d.records);
    assert.equal((await verify(d)).status, 'VERIFIED');

    const other = (await app.api.registerWithKey()).apiKey;
    const theirs = await add('shared.example.com', other);
    // SPF is the same for everyone, but their DKIM key is not published: no verification, no hijack.
    const attempt = await verify(theirs, other);
    assert.equal(attempt.verified, false);
    assert.deepEqual(attempt.spf, { verified: true });
    assert.equal(attempt.dkim.code, 'MISSING_RECORD');
    assert.equal(attempt.status, 'PENDING');

    // Even the DNS owner publishing both keys does not put the name on two accounts at once.
    publish(
      dns,
      theirs.records.filter((x) => x.purpose === 'dkim'),
    );
    const res = await app.api.post<ErrorBody>(`/v1/domains/${theirs.id}/verify`, { token: other });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'DOMAIN_VERIFIED_ELSEWHERE');
    assert.equal((res.body.error.details?.verification as { verified: boolean }).verified, true);
    const still = await app.api.get<{ status: string }>(`/v1/domains/${theirs.id}`, { token: other });
    assert.equal(still.body.status, 'PENDING');

    // Once the first account lets go, the second can verify.
    assert.equal((await app.api.delete(`/v1/domains/${d.id}`, { token: key })).status, 200);
    assert.equal((await verify(theirs, other)).status, 'VERIFIED');
  });

  it('logs dns_verification per attempt with per-check results and no key material', async () => {
    const d = await add('logged.example.com');
    await verify(d);
    const lines = app.lines.filter((l) => l.includes('"dns_verification"') && l.includes(d.id));
    assert.equal(lines.length, 1);
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    assert.equal(entry.trigger, 'api');
    assert.deepEqual(entry.checks, {
      spf: 'MISSING_RECORD',
      dkim: 'MISSING_RECORD',
      dmarc: 'MISSING_RECORD',
      returnPath: 'MISSING_RECORD',
    });
    const k = keyOf(d.records);
    for (const line of app.lines) {
      assert.ok(!line.includes(k.slice(20, 80)), 'no public key in the logs either');
      assert.ok(!line.includes('PRIVATE KEY'));
    }
  });
});
