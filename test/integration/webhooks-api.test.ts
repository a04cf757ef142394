import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { openApplianceDb } from '../helpers/open-database';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}
interface WebhookBody {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: string;
  secret?: string;
  warnings?: string[];
  attempts?: unknown[];
}

const ALL = [
  'email.sent',
  'email.delivered',
  'email.bounced',
  'email.failed',
  'email.complained',
  'email.received',
];

describe('/v1/webhooks: endpoints, secrets and isolation', () => {
  let dns: FakeDns;
  let app: Appliance;
  let apiKey: string;
  let token: string;
  let userId: string;
  let other: string;

  before(async () => {
    dns = await startDnsServer();
    dns.set('hooks.example.com', 'A', ['93.184.216.34']);
    app = await startAppliance({ processes: ['api'], env: { DNS_SERVERS: dns.address } });
    ({ apiKey, token, userId } = await app.api.registerWithKey());
    other = (await app.api.registerWithKey()).apiKey;
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  const create = (body: unknown, key = apiKey) =>
    app.api.post<WebhookBody & ErrorBody>('/v1/webhooks', { token: key, body });

  it('creates an endpoint: 201, the secret once, never again', async () => {
    const res = await create({
      url: 'https://hooks.example.com/mail',
      events: ['email.bounced', 'email.sent'],
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, /^whk_[0-9a-z]{26}$/);
    assert.equal(res.body.url, 'https://hooks.example.com/mail');
    assert.deepEqual(res.body.events, ['email.sent', 'email.bounced']);
    assert.equal(res.body.enabled, true);
    assert.equal(res.body.consecutiveFailures, 0);
    const secret = res.body.secret ?? '';
    // Standard base64 of 32 bytes (issue 20: the Standard Webhooks secret form).
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

    const one = await app.api.get<WebhookBody>(`/v1/webhooks/${res.body.id}`, { token: apiKey });
    assert.equal(one.status, 200);
    assert.equal(one.body.secret, undefined);
    assert.deepEqual(one.body.attempts, []);
    const list = await app.api.get<{ data: WebhookBody[] }>('/v1/webhooks', { token });
    assert.deepEqual(
      list.body.data.map((w) => w.id),
      [res.body.id],
    );
    assert.ok(!list.text.includes(secret) && !one.text.includes(secret));

    // Sealed at rest: the clear secret is in no column, no SQLite file (WAL included; on
    // PostgreSQL those files do not exist) and in no log line.
    const appDb = openApplianceDb(app);
    const rows = await appDb
      .selectFrom('webhooks')
      .selectAll()
      .execute()
      .finally(() => appDb.destroy());
    assert.equal(
      JSON.stringify(rows).includes(secret.slice('whsec_'.length)),
      false,
      'a column holds the secret',
    );
    const db = path.join(app.dataDir, 'mail.db');
    for (const file of [db, `${db}-wal`]) {
      if (!fs.existsSync(file)) continue;
      const bytes = fs.readFileSync(file);
      assert.equal(bytes.indexOf(secret), -1, `${file} holds the secret`);
      assert.equal(bytes.indexOf(secret.slice('whsec_'.length)), -1, `${file} holds the secret`);
    }
    assert.ok(!app.lines.join('\n').includes(secret.slice(6)), 'the secret was logged');
  });

  it('accepts a host that does not resolve, with a warning saying so (issue 21 item 3)', async () => {
    const res = await create({ url: 'https://typo.hooks.example.com/mail', events: ['email.sent'] });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.warnings?.length, 1, res.text);
    assert.match(res.body.warnings?.[0] ?? '', /^url: typo\.hooks\.example\.com has no A or AAAA record/);
    assert.match(res.body.warnings?.[0] ?? '', /disabled/);
    const resolving = await create({ url: 'https://hooks.example.com/ok', events: ['email.sent'] });
    assert.equal(resolving.status, 201, resolving.text);
    assert.equal(resolving.body.warnings, undefined);
    for (const id of [res.body.id, resolving.body.id]) {
      assert.equal((await app.api.delete(`/v1/webhooks/${id}`, { token: apiKey })).status, 200);
    }
  });

  it('validates url and events', async () => {
    const cases: unknown[] = [
      { url: 'https://hooks.example.com/', events: [] },
      { url: 'https://hooks.example.com/', events: ['email.opened'] },
      { url: 'https://hooks.example.com/', events: 'email.sent' },
      { url: 'https://hooks.example.com/' },
      { url: 'ftp://hooks.example.com/', events: ['email.sent'] },
      { url: 'https://u:p@hooks.example.com/', events: ['email.sent'] },
      { url: 'hooks.example.com', events: ['email.sent'] },
      { url: `https://hooks.example.com/${'x'.repeat(2100)}`, events: ['email.sent'] },
      { url: 'https://hooks.example.com/', events: ['email.sent'], extra: 1 },
      // The guard is on (no WEBHOOK_ALLOW_PRIVATE here): internal addresses are refused up front.
      { url: 'http://127.0.0.1:9/', events: ['email.sent'] },
      { url: 'http://169.254.169.254/latest/meta-data/', events: ['email.sent'] },
    ];
    for (const body of cases) {
      const res = await create(body);
      assert.equal(res.status, 422, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    }
    const all = await create({ url: 'https://hooks.example.com/all', events: [...ALL, 'email.sent'] });
    assert.deepEqual(all.body.events, ALL);
  });

  it('PATCH changes url, events and enabled; re-enabling resets the failure count', async () => {
    const { body: hook } = await create({ url: 'https://hooks.example.com/p', events: ['email.sent'] });
    const patched = await app.api.patch<WebhookBody>(`/v1/webhooks/${hook.id}`, {
      token: apiKey,
      body: { url: 'https://hooks.example.com/q', events: ['email.failed'], enabled: false },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.url, 'https://hooks.example.com/q');
    assert.deepEqual(patched.body.events, ['email.failed']);
    assert.equal(patched.body.enabled, false);
    assert.equal(patched.body.disabledReason, 'manual');

    const db = openApplianceDb(app);
    try {
      await db
        .updateTable('webhooks')
        .set({ consecutive_failures: 20, disabled_reason: 'consecutive_failures' })
        .where('id', '=', hook.id)
        .execute();
      const enabled = await app.api.patch<WebhookBody>(`/v1/webhooks/${hook.id}`, {
        token: apiKey,
        body: { enabled: true },
      });
      assert.equal(enabled.body.enabled, true);
      assert.equal(enabled.body.consecutiveFailures, 0);
      assert.equal(enabled.body.disabledReason, null);

      const empty = await app.api.patch<ErrorBody>(`/v1/webhooks/${hook.id}`, { token: apiKey, body: {} });
      assert.equal(empty.status, 422);
      const bad = await app.api.patch<ErrorBody>(`/v1/webhooks/${hook.id}`, {
        token: apiKey,
        body: { events: ['nope'] },
      });
      assert.equal(bad.status, 422);

      const deleted = await app.api.delete<{ id: string; deleted: boolean }>(`/v1/webhooks/${hook.id}`, {
        token: apiKey,
      });
      assert.deepEqual(deleted.body, { id: hook.id, deleted: true });
      const gone = await app.api.get<ErrorBody>(`/v1/webhooks/${hook.id}`, { token: apiKey });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.code, 'WEBHOOK_NOT_FOUND');

      const audit = await db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('resource_id', '=', hook.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        audit.map((a) => a.action),
        ['webhook.created', 'webhook.updated', 'webhook.updated', 'webhook.deleted'],
      );
    } finally {
      await db.destroy();
    }
  });

  it("another account's endpoint is 404 WEBHOOK_NOT_FOUND for every method, and absent from its list", async () => {
    const { body: hook } = await create({ url: 'https://hooks.example.com/mine', events: ['email.sent'] });
    const attempts = [
      app.api.get<ErrorBody>(`/v1/webhooks/${hook.id}`, { token: other }),
      app.api.patch<ErrorBody>(`/v1/webhooks/${hook.id}`, { token: other, body: { enabled: false } }),
      app.api.delete<ErrorBody>(`/v1/webhooks/${hook.id}`, { token: other }),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error.code, 'WEBHOOK_NOT_FOUND');
    }
    const list = await app.api.get<{ data: WebhookBody[] }>('/v1/webhooks', { token: other });
    assert.deepEqual(list.body.data, []);
    const still = await app.api.get<WebhookBody>(`/v1/webhooks/${hook.id}`, { token: apiKey });
    assert.equal(still.body.enabled, true);
    assert.ok(userId);
  });

  it('needs authentication', async () => {
    const res = await app.api.get<ErrorBody>('/v1/webhooks');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
  });
});
