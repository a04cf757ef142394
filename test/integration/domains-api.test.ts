import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSealer } from '../../src/shared/seal';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { publish, recordOf } from '../helpers/dns-fixtures';
import { isPostgresUrl, openApplianceDb } from '../helpers/open-database';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

interface RecordBody {
  purpose: string;
  type: string;
  host: string;
  name: string;
  value: string;
  ttl: number;
  required: boolean;
  description: string;
  priority?: number;
}

interface DomainBody {
  id: string;
  domain: string;
  status: string;
  records: RecordBody[];
  receiveEnabled: boolean;
  inboundLabel: string;
  addresses: string[];
  restrictSenders: boolean;
  verifiedAt: string | null;
}

// Under a real public suffix, so the "own host name" rule (not the suffix rule) is what refuses it.
const MAIL_HOSTNAME = 'mx.mailroom-appliance.net';
const SPF_INCLUDE = `_spf.${MAIL_HOSTNAME}`;

describe('domains API: records, settings, isolation, keys at rest', () => {
  let dns: FakeDns;
  let app: Appliance;
  let alice: { token: string; apiKey: string; userId: string };
  let bob: { token: string; apiKey: string; userId: string };

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: { DNS_SERVERS: dns.address, MAIL_HOSTNAME },
    });
    [alice, bob] = await Promise.all([app.api.registerWithKey(), app.api.registerWithKey()]);
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  const add = (token: string, domain: unknown) =>
    app.api.post<DomainBody>('/v1/domains', { token, body: { domain } });

  it('adds a domain: PENDING, with the spec records and a 2048-bit DKIM key', async () => {
    const res = await add(alice.apiKey, '  Mail.Example.COM. ');
    assert.equal(res.status, 201, res.text);
    const d = res.body;
    assert.match(d.id, /^dom_[0-9a-z]{26}$/);
    assert.equal(d.domain, 'mail.example.com');
    assert.equal(d.status, 'PENDING');
    assert.equal(d.receiveEnabled, false);
    assert.equal(d.inboundLabel, 'inbox');
    assert.deepEqual(d.addresses, []);
    assert.equal(d.restrictSenders, false);
    assert.deepEqual(
      d.records.map((r) => [r.purpose, r.type, r.required]),
      [
        ['spf', 'TXT', true],
        ['dkim', 'TXT', true],
        ['dmarc', 'TXT', false],
        ['return_path', 'CNAME', false],
      ],
    );
    const spf = recordOf(d.records, 'spf');
    assert.equal(spf.host, '@');
    assert.equal(spf.name, 'mail.example.com');
    assert.equal(spf.value, `v=spf1 include:${SPF_INCLUDE} ~all`);
    assert.equal(spf.ttl, 3600);
    assert.ok(spf.description.length > 0);

    const dkim = recordOf(d.records, 'dkim');
    const selector = /^(mr\d{6}[0-9a-z]{6})\._domainkey$/.exec(dkim.host)?.[1];
    assert.ok(selector, dkim.host);
    assert.equal(dkim.name, `${selector}._domainkey.mail.example.com`);
    const p = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/]+=*)$/.exec(dkim.value)?.[1];
    assert.ok(p, dkim.value);
    const key = crypto.createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    assert.equal(key.asymmetricKeyType, 'rsa');
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);

    const dmarc = recordOf(d.records, 'dmarc');
    assert.equal(dmarc.host, '_dmarc');
    assert.match(dmarc.value, /^v=DMARC1; p=none/);
    const rp = recordOf(d.records, 'return_path');
    assert.deepEqual([rp.host, rp.name, rp.value], ['bounce', 'bounce.mail.example.com', MAIL_HOSTNAME]);
    assert.doesNotMatch(JSON.stringify(d), /private/i);

    const again = await add(alice.token, 'MAIL.example.com');
    assert.equal(again.status, 409);
    assert.equal((again.body as unknown as ErrorBody).error.code, 'DOMAIN_ALREADY_EXISTS');
  });

  it('refuses names one cannot send from with INVALID_DOMAIN, and bad bodies with VALIDATION_ERROR', async () => {
    for (const name of [
      '192.0.2.10',
      '[2001:db8::1]',
      'co.uk',
      'github.io',
      'localhost',
      'printer.local',
      'app.test',
      MAIL_HOSTNAME,
      `bounce.${MAIL_HOSTNAME}`,
      'under_score.example.com',
      'user@example.com',
    ]) {
      const res = await add(alice.apiKey, name);
      assert.equal(res.status, 422, name);
      const err = res.body as unknown as ErrorBody;
      assert.equal(err.error.code, 'INVALID_DOMAIN', name);
      assert.equal(typeof err.error.details?.reason, 'string');
    }
    for (const body of [{}, { domain: 42 }, { domain: '' }, { domain: 'example.org', extra: true }]) {
      const res = await app.api.post<ErrorBody>('/v1/domains', { token: alice.apiKey, body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    }
    assert.equal((await app.api.post<ErrorBody>('/v1/domains', { body: { domain: 'x.com' } })).status, 401);
  });

  it("keeps accounts apart: another account's domain is DOMAIN_NOT_FOUND everywhere", async () => {
    const mine = (await add(alice.apiKey, 'isolated.example.net')).body;
    const paths: [string, string, unknown?][] = [
      ['GET', `/v1/domains/${mine.id}`],
      ['PATCH', `/v1/domains/${mine.id}`, { receiveEnabled: true }],
      ['POST', `/v1/domains/${mine.id}/verify`],
      ['DELETE', `/v1/domains/${mine.id}`],
      ['GET', '/v1/domains/dom_00000000000000000000000000'],
    ];
    for (const [method, p, body] of paths) {
      const res = await app.api.request<ErrorBody>(method, p, { token: bob.apiKey, body });
      assert.equal(res.status, 404, `${method} ${p}`);
      assert.equal(res.body.error.code, 'DOMAIN_NOT_FOUND');
    }
    const bobs = await app.api.get<{ data: DomainBody[] }>('/v1/domains', { token: bob.token });
    assert.ok(!bobs.body.data.some((d) => d.id === mine.id));
    // The same name on another account is allowed, with a key (and selector) of its own.
    const theirs = await add(bob.apiKey, 'isolated.example.net');
    assert.equal(theirs.status, 201);
    assert.notEqual(recordOf(theirs.body.records, 'dkim').host, recordOf(mine.records, 'dkim').host);
    assert.equal((await app.api.get(`/v1/domains/${mine.id}`, { token: alice.token })).status, 200);
  });

  it('lists and reads domains with API key or session', async () => {
    const created = (await add(alice.token, 'listed.example.org')).body;
    const list = await app.api.get<{ data: DomainBody[] }>('/v1/domains', { token: alice.apiKey });
    assert.equal(list.status, 200);
    const entry = list.body.data.find((d) => d.id === created.id);
    assert.deepEqual(entry, created);
    const one = await app.api.get<DomainBody>(`/v1/domains/${created.id}`, { token: alice.token });
    assert.deepEqual(one.body, created);
  });

  it('PATCH sets receiving (the MX record appears), the label, addresses and restrictSenders', async () => {
    const d = (await add(alice.apiKey, 'receive.example.org')).body;
    const patch = (body: unknown) =>
      app.api.patch<DomainBody>(`/v1/domains/${d.id}`, { token: alice.apiKey, body });

    const on = await patch({ receiveEnabled: true });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.receiveEnabled, true);
    const mx = recordOf(on.body.records, 'mx');
    assert.deepEqual(
      [mx.type, mx.host, mx.name, mx.value, mx.priority, mx.required],
      ['MX', 'inbox', 'inbox.receive.example.org', MAIL_HOSTNAME, 10, false],
    );

    const apex = await patch({
      inboundLabel: '@',
      addresses: ['Sales', 'support', 'sales', 'first.last'],
      restrictSenders: true,
    });
    assert.equal(apex.status, 200, apex.text);
    assert.equal(apex.body.inboundLabel, '@');
    assert.deepEqual(apex.body.addresses, ['sales', 'support', 'first.last']);
    assert.equal(apex.body.restrictSenders, true);
    const apexMx = recordOf(apex.body.records, 'mx');
    assert.deepEqual([apexMx.host, apexMx.name], ['@', 'receive.example.org']);

    assert.equal((await patch({ inboundLabel: 'MAIL-in' })).body.inboundLabel, 'mail-in');

    for (const bad of [
      {},
      { inboundLabel: '-in' },
      { inboundLabel: 'a.b' },
      { inboundLabel: 'bounce' },
      { inboundLabel: 'x'.repeat(64) },
      { inboundLabel: '' },
      { addresses: ['someone@example.com'] },
      { addresses: ['two..dots'] },
      { addresses: ['x'.repeat(65)] },
      { addresses: 'sales' },
      { receiveEnabled: 'yes' },
      { status: 'VERIFIED' },
    ]) {
      const res = await app.api.patch<ErrorBody>(`/v1/domains/${d.id}`, { token: alice.apiKey, body: bad });
      assert.equal(res.status, 422, JSON.stringify(bad));
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    }

    const off = await patch({ receiveEnabled: false, addresses: [] });
    assert.ok(!off.body.records.some((r) => r.purpose === 'mx'));
    assert.deepEqual(off.body.addresses, []);
  });

  it('DELETE removes the domain; created, updated and deleted are audited', async () => {
    const d = (await add(alice.apiKey, 'deleted.example.org')).body;
    await app.api.patch(`/v1/domains/${d.id}`, { token: alice.apiKey, body: { restrictSenders: true } });
    const del = await app.api.delete<{ id: string; domain: string; deleted: boolean }>(
      `/v1/domains/${d.id}`,
      {
        token: alice.token,
      },
    );
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { id: d.id, domain: 'deleted.example.org', deleted: true });
    assert.equal((await app.api.get(`/v1/domains/${d.id}`, { token: alice.token })).status, 404);
    assert.equal((await app.api.delete(`/v1/domains/${d.id}`, { token: alice.token })).status, 404);
    // Deleted names can be added again (a new key, a new selector).
    assert.equal((await add(alice.apiKey, 'deleted.example.org')).status, 201);

    const audit = await runCtl(app.env, ['audit', 'list', '--json', '--account', alice.userId]);
    assert.equal(audit.code, 0, audit.stderr);
    const entries = audit.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { action: string; resourceId: string; actorType: string; ip: string | null },
      )
      .filter((e) => e.resourceId === d.id);
    assert.deepEqual(entries.map((e) => e.action).sort(), [
      'domain.created',
      'domain.deleted',
      'domain.updated',
    ]);
    assert.ok(entries.every((e) => e.ip !== null));
  });

  it('never stores or logs a DKIM private key in clear; the sealed key opens with the master secret', async () => {
    const d = (await add(alice.apiKey, 'sealed.example.com')).body;
    publish(dns, d.records);
    const verified = await app.api.post<{ verified: boolean }>(`/v1/domains/${d.id}/verify`, {
      token: alice.apiKey,
    });
    assert.equal(verified.body.verified, true, verified.text);

    // On SQLite no database file holds it in clear (WAL included); on PostgreSQL the row below
    // is what there is to read.
    const files = isPostgresUrl(app.databaseUrl)
      ? []
      : ['mail.db', 'mail.db-wal', 'mail.db-shm']
          .map((f) => path.join(app.dataDir, f))
          .filter((f) => fs.existsSync(f));
    if (!isPostgresUrl(app.databaseUrl)) assert.ok(files.length >= 2, 'database and its WAL exist');
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      assert.equal(bytes.includes('PRIVATE KEY'), false, `${file} holds a clear private key`);
      assert.equal(bytes.includes('BEGIN RSA'), false, file);
    }
    assert.ok(app.lines.length > 0);
    for (const line of app.lines) assert.ok(!/PRIVATE KEY/i.test(line), line);

    // The key is there, sealed: the appliance's secret opens it, and it is the pair of the published key.
    const db = openApplianceDb(app);
    const stored = await db
      .selectFrom('domains')
      .selectAll()
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow()
      .finally(() => db.destroy());
    assert.equal(JSON.stringify(stored).includes('PRIVATE KEY'), false, 'a column holds a clear private key');
    const row = { sealed: stored.dkim_private_key_encrypted };
    assert.match(row.sealed, /^v1\.[A-Za-z0-9_-]{8}\./);
    const secret = fs.readFileSync(path.join(app.dataDir, 'secret.key'), 'utf8').trim();
    const pem = createSealer({ secretKey: secret }).open(row.sealed, `dkim:${d.id}`);
    assert.match(pem, /^-----BEGIN PRIVATE KEY-----/);
    const derived = crypto
      .createPublicKey(crypto.createPrivateKey(pem))
      .export({ type: 'spki', format: 'der' })
      .toString('base64');
    assert.equal(recordOf(d.records, 'dkim').value, `v=DKIM1; k=rsa; p=${derived}`);
  });
});
