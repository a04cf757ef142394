// Issue 29 item 6: "Send a test email" from a domain (POST /v1/domains/{id}/test-email). Always
// test mode and always to the simulator's delivered@, whoever calls (a session, a live key):
// captured, never delivered, audited, tenant-scoped, CSRF-checked for the dashboard's cookie, and
// it leaves the domain deletable (test mail is no history). Also GET /v1/settings' `mx`, which the
// domain screen's try-it line reads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { openApplianceDb } from '../helpers/open-database';
import { cookieValue, setCookies } from '../helpers/set-cookies';
import { waitUntil } from '../helpers/wait-until';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}
interface Sent {
  id: string;
  status: string;
  from: string;
  to: string;
  mode: string;
}
interface EmailBody {
  status: string;
  mode: string;
  fromAddress: string;
  recipients: { email: string; status: string }[];
  capture: { state: string; unverifiedDomain: boolean } | null;
}

const SIMULATOR = 'delivered@simulator.mailroom.invalid';

describe('POST /v1/domains/{id}/test-email', () => {
  let app: Appliance;
  let alice: { token: string; userId: string; email: string; password: string };
  let bob: { token: string; userId: string };
  let domainId = '';

  before(async () => {
    app = await startAppliance();
    [alice, bob] = await Promise.all([app.api.register(), app.api.register()]);
    const created = await app.api.post<{ id: string }>('/v1/domains', {
      token: alice.token,
      body: { domain: 'trial.example.com' },
    });
    assert.equal(created.status, 201, created.text);
    domainId = created.body.id;
  });
  after(async () => {
    await app?.stop();
  });

  const testEmail = (id: string, token: string) =>
    app.api.post<Sent & ErrorBody>(`/v1/domains/${id}/test-email`, { token });

  it('with a session, from a domain not yet verified: test mode, to the simulator, captured and delivered there', async () => {
    const res = await testEmail(domainId, alice.token);
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(
      { status: res.body.status, from: res.body.from, to: res.body.to, mode: res.body.mode },
      { status: 'queued', from: 'test@trial.example.com', to: SIMULATOR, mode: 'test' },
    );
    assert.match(res.body.id, /^email_/);
    let email: EmailBody | undefined;
    await waitUntil(
      'the test email delivered in the capture',
      async () => {
        email = (await app.api.get<EmailBody>(`/v1/emails/${res.body.id}`, { token: alice.token })).body;
        return email.status === 'delivered';
      },
      30_000,
    );
    assert.ok(email);
    assert.equal(email.mode, 'test');
    assert.equal(email.capture?.state, 'captured');
    assert.equal(email.capture?.unverifiedDomain, true);
    assert.deepEqual(
      email.recipients.map((r) => r.email),
      [SIMULATOR],
    );
  });

  it('is audited as email.test_sent with the caller as actor', async () => {
    const res = await testEmail(domainId, alice.token);
    assert.equal(res.status, 202, res.text);
    const db = openApplianceDb(app);
    try {
      const rows = await db
        .selectFrom('audit_log')
        .select(['actor_type', 'actor_id', 'action', 'resource', 'details'])
        .where('resource_id', '=', res.body.id)
        .execute();
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.deepEqual(
        { actorType: row.actor_type, actorId: row.actor_id, action: row.action, resource: row.resource },
        { actorType: 'user', actorId: alice.userId, action: 'email.test_sent', resource: 'email' },
      );
      const details = (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<
        string,
        unknown
      >;
      assert.deepEqual(details, { domainId, from: 'test@trial.example.com', to: SIMULATOR, mode: 'test' });
    } finally {
      await db.destroy();
    }
  });

  it('another account’s domain, or none, is 404 DOMAIN_NOT_FOUND and sends nothing', async () => {
    const other = await testEmail(domainId, bob.token);
    assert.equal(other.status, 404, other.text);
    assert.equal(other.body.error.code, 'DOMAIN_NOT_FOUND');
    const none = await testEmail('dom_doesnotexist', bob.token);
    assert.equal(none.status, 404);
    const bobs = await app.api.get<{ data: unknown[] }>('/v1/emails', { token: bob.token });
    assert.deepEqual(bobs.body.data, []);
  });

  it('sends from the first listed address when restrictSenders holds the domain to its addresses', async () => {
    const patched = await app.api.patch(`/v1/domains/${domainId}`, {
      token: alice.token,
      body: { addresses: ['hello', 'support'], restrictSenders: true },
    });
    assert.equal(patched.status, 200, patched.text);
    const res = await testEmail(domainId, alice.token);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.from, 'hello@trial.example.com');
    await app.api.patch(`/v1/domains/${domainId}`, {
      token: alice.token,
      body: { addresses: [], restrictSenders: false },
    });
  });

  it('a live key sends in test mode too; a test key may call it; a sending-only key may not', async () => {
    const live = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: alice.token,
      body: { name: 'live' },
    });
    const res = await testEmail(domainId, live.body.token);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.mode, 'test');
    const stored = await app.api.get<EmailBody>(`/v1/emails/${res.body.id}`, { token: alice.token });
    assert.equal(stored.body.mode, 'test');
    const test = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: alice.token,
      body: { name: 'trial', mode: 'test' },
    });
    assert.equal((await testEmail(domainId, test.body.token)).status, 202);
    const sending = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: alice.token,
      body: { name: 'sender', permission: 'sending_access' },
    });
    const refused = await testEmail(domainId, sending.body.token);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'RESTRICTED_API_KEY');
  });

  it('by the dashboard’s cookie: needs the CSRF header, like every state change', async () => {
    const login = await app.api.post('/v1/auth/login', {
      body: { email: alice.email, password: alice.password },
    });
    const cookies = setCookies(login.headers);
    const csrf = cookieValue(cookies.get('mr_csrf'));
    const cookie = `mr_session=${cookieValue(cookies.get('mr_session'))}; mr_csrf=${csrf}`;
    const before = await app.api.get<{ data: unknown[] }>('/v1/emails?limit=100', { token: alice.token });
    const refused = await app.api.post<ErrorBody>(`/v1/domains/${domainId}/test-email`, {
      headers: { cookie },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'CSRF_FAILED');
    const after = await app.api.get<{ data: unknown[] }>('/v1/emails?limit=100', { token: alice.token });
    assert.equal(after.body.data.length, before.body.data.length, 'nothing was sent');
    const ok = await app.api.post<Sent>(`/v1/domains/${domainId}/test-email`, {
      headers: { cookie, 'x-csrf-token': csrf },
    });
    assert.equal(ok.status, 202, ok.text);
  });

  it('leaves the domain deletable: test mail is no sending history', async () => {
    const res = await app.api.delete<{ deleted: boolean }>(`/v1/domains/${domainId}`, { token: alice.token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.deleted, true);
  });

  it('GET /v1/settings says where the MX listens (MX_HOST, SMTP_PORT)', async () => {
    const res = await app.api.get<{ mx: { host: string; port: number } }>('/v1/settings', {
      token: alice.token,
    });
    assert.deepEqual(res.body.mx, { host: 'mx.mailroom-appliance.net', port: app.ports.smtp });
  });
});
