import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}
interface KeyBody {
  id: string;
  token: string;
  permission: string;
  domainId: string | null;
}

describe('API key permissions: full_access and sending_access, optionally held to a domain', () => {
  let dns: FakeDns;
  let app: Appliance;
  let session: string;
  let fullKey: string;
  let domainA: string;
  let domainB: string;

  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({ processes: ['api'], env: { DNS_SERVERS: dns.address } });
    ({ token: session, apiKey: fullKey } = await app.api.registerWithKey());
    domainA = (await addVerifiedDomain(app, dns, session, 'a.perm.example.com')).id;
    domainB = (await addVerifiedDomain(app, dns, session, 'b.perm.example.com')).id;
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  const createKey = (token: string, body: Record<string, unknown>) =>
    app.api.post<KeyBody & ErrorBody>('/v1/api-keys', { token, body: { name: 'k', ...body } });
  const message = (from: string) => ({ from, to: 'x@example.org', subject: 's', text: 't' });

  it('defaults to full_access, which lists keys; creating one needs a session (spec)', async () => {
    const list = await app.api.get<{ data: KeyBody[] }>('/v1/api-keys', { token: fullKey });
    assert.deepEqual(
      list.body.data.map((k) => [k.permission, k.domainId]),
      [['full_access', null]],
    );
    const made = await createKey(session, {});
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.permission, 'full_access');
    const refused = await createKey(fullKey, {});
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'FORBIDDEN');
    const revoked = await app.api.delete<{ revokedAt: string }>(`/v1/api-keys/${made.body.id}`, {
      token: session,
    });
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.body.revokedAt);
  });

  it('a sending_access key sends (single and batch) and can do nothing else', async () => {
    const sender = await createKey(session, { permission: 'sending_access' });
    assert.equal(sender.status, 201, sender.text);
    assert.equal(sender.body.permission, 'sending_access');
    const token = sender.body.token;
    const one = await app.api.post('/v1/emails', { token, body: message('a@a.perm.example.com') });
    assert.equal(one.status, 202, one.text);
    const batch = await app.api.post('/v1/emails/batch', { token, body: [message('a@b.perm.example.com')] });
    assert.equal(batch.status, 202, batch.text);
    for (const [method, path] of [
      ['GET', '/v1/emails'],
      ['GET', '/v1/domains'],
      ['GET', '/v1/api-keys'],
      ['GET', '/v1/suppressions'],
      ['GET', '/v1/auth/me'],
    ] as const) {
      const res = await app.api.request<ErrorBody>(method, path, { token });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.error.code, 'RESTRICTED_API_KEY');
    }
    const minting = await createKey(token, {});
    assert.equal(minting.status, 403, minting.text);
    assert.equal(minting.body.error.code, 'FORBIDDEN');
    const keys = await app.api.get<{ data: KeyBody[] }>('/v1/api-keys', { token: session });
    // The registered key, the one the first test made and revoked, this one.
    assert.equal(keys.body.data.length, 3, 'nothing was created by the refused request');
  });

  it('a key held to a domain sends from it only: 403 API_KEY_DOMAIN_RESTRICTED otherwise', async () => {
    const held = await createKey(session, { permission: 'sending_access', domainId: domainA });
    assert.equal(held.status, 201, held.text);
    assert.equal(held.body.domainId, domainA);
    const token = held.body.token;
    const ok = await app.api.post('/v1/emails', { token, body: message('a@a.perm.example.com') });
    assert.equal(ok.status, 202, ok.text);
    const other = await app.api.post<ErrorBody>('/v1/emails', {
      token,
      body: message('a@b.perm.example.com'),
    });
    assert.equal(other.status, 403, other.text);
    assert.equal(other.body.error.code, 'API_KEY_DOMAIN_RESTRICTED');
    const mixed = await app.api.post<ErrorBody>('/v1/emails/batch', {
      token,
      body: [message('a@a.perm.example.com'), message('a@b.perm.example.com')],
    });
    assert.equal(mixed.status, 403, mixed.text);
    assert.equal(mixed.body.error.details?.index, 1);
  });

  it('refuses a domainId on a full_access key, and another account’s domain', async () => {
    const full = await createKey(session, { domainId: domainB });
    assert.equal(full.status, 422, full.text);
    assert.equal(full.body.error.code, 'VALIDATION_ERROR');
    const stranger = await app.api.registerWithKey();
    const foreign = await createKey(stranger.token, { permission: 'sending_access', domainId: domainB });
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal(foreign.body.error.code, 'DOMAIN_NOT_FOUND');
    const bad = await createKey(session, { permission: 'read_only' });
    assert.equal(bad.status, 422);
  });
});
