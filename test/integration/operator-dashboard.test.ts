// The operator role and the session-authenticated operator endpoints (issue 19 item 4):
// `ctl accounts grant-operator` makes an operator, /v1/auth/me says so, /v1/operator/…
// answers operators' sessions only, and the actions are audited under the acting user.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import { openApplianceDb } from '../helpers/open-database';
import { idTimeFloor } from '../../src/shared/id-time-floor';
import { sortableId } from '../../src/shared/ids';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import { insertEmail } from '../helpers/email-fixtures';

interface Account {
  id: string;
  email: string;
  status: string;
  role: string;
  suspensionReason: string | null;
  emailsPerHour: number | null;
  volume: { last24h: number; last30d: number };
  limits: { emailsPerHour: number; emailsPerDay: number };
}
interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
interface AuditEntry {
  id: string;
  userId: string | null;
  actorType: string;
  actorId: string | null;
  action: string;
  resourceId: string | null;
  details: Record<string, unknown> | null;
  createdAt: string;
  actorEmail: string | null;
  actorKeyName: string | null;
  accountEmail: string | null;
  resourceName: string | null;
}
type ErrorBody = { error: { code: string } };

describe('operator role and /v1/operator endpoints', () => {
  let app: Appliance;
  let db: Db;
  let op: { token: string; userId: string; email: string; apiKey: string };
  let user: { token: string; userId: string; email: string };
  const DAY = 86_400_000;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    db = openApplianceDb(app);
    const a = await app.api.register(`operator-${Date.now()}@example.com`);
    const key = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: a.token,
      body: { name: 'k' },
    });
    op = { ...a, apiKey: key.body.token };
    user = await app.api.register(`customer-${Date.now()}@example.com`);
    await app.api.register(`third-${Date.now()}@example.com`);
    const domain = await app.api.post<{ id: string }>('/v1/domains', {
      token: user.token,
      body: { domain: 'customer.example.com' },
    });
    const account = { userId: user.userId, domainId: domain.body.id, domain: 'customer.example.com' };
    // Two messages today, one ten days ago, one forty days ago (ids of their time, as sends make them).
    for (const ago of [0, 0, 10 * DAY, 40 * DAY]) {
      const at = Date.now() - ago;
      await insertEmail(db, account, {
        id: `${idTimeFloor('email', at)}${sortableId().slice(10)}`,
        createdAt: new Date(at).toISOString(),
      });
    }
  });
  after(async () => {
    await db.destroy();
    await app.stop();
  });

  const get = <T>(p: string, token: string) => app.api.get<T & ErrorBody>(p, { token });

  it('an account is a user until ctl grants the operator role; only operators get in', async () => {
    const me = await get<{ role: string }>('/v1/auth/me', op.token);
    assert.equal(me.body.role, 'user');
    const refused = await get('/v1/operator/accounts', op.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'FORBIDDEN');
    const anonymous = await app.api.get<ErrorBody>('/v1/operator/accounts');
    assert.equal(anonymous.status, 401);

    const granted = await runCtl(app.env, ['accounts', 'grant-operator', op.email]);
    assert.equal(granted.code, 0, granted.stderr);
    assert.equal((JSON.parse(granted.stdout) as { role: string }).role, 'operator');
    assert.equal((await get<{ role: string }>('/v1/auth/me', op.token)).body.role, 'operator');
    assert.equal((await get('/v1/operator/accounts', op.token)).status, 200);
    // An API key never carries the operator's powers.
    const byKey = await get('/v1/operator/accounts', op.apiKey);
    assert.equal(byKey.status, 403);
    assert.equal((await get('/v1/operator/accounts', user.token)).status, 403);
  });

  it('lists accounts newest first with volume and limits, searchable and paged', async () => {
    const all = await get<Page<Account>>('/v1/operator/accounts', op.token);
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.data.length, 3);
    const found = await get<Page<Account>>(
      `/v1/operator/accounts?q=${encodeURIComponent('CUSTOMER-')}`,
      op.token,
    );
    assert.deepEqual(
      found.body.data.map((a) => a.id),
      [user.userId],
    );
    const customer = found.body.data[0]!;
    assert.deepEqual(customer.volume, { last24h: 2, last30d: 3 });
    assert.equal(customer.status, 'ACTIVE');
    assert.equal(customer.role, 'user');
    assert.ok(customer.limits.emailsPerHour > 0 && customer.limits.emailsPerDay > 0);

    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const res = await get<Page<Account>>(`/v1/operator/accounts?limit=1${cursor}`, op.token);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.data.map((a) => a.id));
      if (!res.body.nextCursor) break;
      cursor = `&cursor=${res.body.nextCursor}`;
    }
    assert.deepEqual(
      seen,
      all.body.data.map((a) => a.id),
    );
    assert.equal((await get('/v1/operator/accounts?q=', op.token)).status, 422);
    assert.equal((await get('/v1/operator/accounts?cursor=usr_x', op.token)).status, 422);
  });

  it('suspends, reinstates and sets limits, audited under the acting operator', async () => {
    const noReason = await app.api.post<ErrorBody>(`/v1/operator/accounts/${user.userId}/suspend`, {
      token: op.token,
      body: {},
    });
    assert.equal(noReason.status, 422);
    const suspended = await app.api.post<Account>(`/v1/operator/accounts/${user.userId}/suspend`, {
      token: op.token,
      body: { reason: 'phishing reports' },
    });
    assert.equal(suspended.status, 200, suspended.text);
    assert.equal(suspended.body.status, 'SUSPENDED');
    assert.equal(suspended.body.suspensionReason, 'phishing reports');
    const locked = await get('/v1/auth/me', user.token);
    assert.equal(locked.status, 403);
    assert.equal(locked.body.error.code, 'ACCOUNT_SUSPENDED');

    const reinstated = await app.api.post<Account>(`/v1/operator/accounts/${user.userId}/reinstate`, {
      token: op.token,
      body: { reason: 'cleared' },
    });
    assert.equal(reinstated.body.status, 'ACTIVE');
    const limited = await app.api.request<Account>('PUT', `/v1/operator/accounts/${user.userId}/limits`, {
      token: op.token,
      body: { emailsPerHour: 5 },
    });
    assert.equal(limited.status, 200, limited.text);
    assert.equal(limited.body.emailsPerHour, 5);
    const missing = await app.api.post<ErrorBody>(`/v1/operator/accounts/usr_${sortableId()}/suspend`, {
      token: op.token,
      body: { reason: 'x' },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'ACCOUNT_NOT_FOUND');

    const audit = await get<Page<AuditEntry>>(`/v1/operator/audit?target=${user.userId}`, op.token);
    assert.equal(audit.status, 200, audit.text);
    assert.deepEqual(
      audit.body.data.map((e) => [e.action, e.actorType, e.actorId]),
      [
        ['settings.limits_updated', 'operator', op.userId],
        ['user.reinstated', 'operator', op.userId],
        ['user.suspended', 'operator', op.userId],
        ['user.registered', 'user', user.userId],
      ],
    );
    assert.equal(audit.body.data[1]!.details?.reason, 'cleared');
  });

  it('names the ids of each audit entry: accounts by email, a key by its name, a domain by its own', async () => {
    const names = (e: AuditEntry) => [e.action, e.actorEmail, e.actorKeyName, e.accountEmail, e.resourceName];
    const suspended = await get<Page<AuditEntry>>('/v1/operator/audit?action=user.suspended', op.token);
    assert.deepEqual(suspended.body.data.map(names), [
      ['user.suspended', op.email, null, user.email, user.email],
    ]);
    const domain = await get<Page<AuditEntry>>(
      `/v1/operator/audit?action=domain.created&account=${user.userId}`,
      op.token,
    );
    assert.deepEqual(domain.body.data.map(names), [
      ['domain.created', user.email, null, user.email, 'customer.example.com'],
    ]);
    const key = await get<Page<AuditEntry>>(
      `/v1/operator/audit?action=api_key.created&account=${op.userId}`,
      op.token,
    );
    assert.deepEqual(key.body.data.map(names), [['api_key.created', op.email, null, op.email, 'k']]);
  });

  it('filters the audit log by action, actor, account and time, with cursor paging', async () => {
    const byAction = await get<Page<AuditEntry>>('/v1/operator/audit?action=user.suspended', op.token);
    assert.deepEqual(
      byAction.body.data.map((e) => e.resourceId),
      [user.userId],
    );
    const byActor = await get<Page<AuditEntry>>(`/v1/operator/audit?actor=${op.userId}`, op.token);
    const byActorEmail = await get<Page<AuditEntry>>(
      `/v1/operator/audit?actor=${encodeURIComponent(op.email.toUpperCase())}`,
      op.token,
    );
    assert.deepEqual(
      byActorEmail.body.data.map((e) => e.id),
      byActor.body.data.map((e) => e.id),
      'an account’s email stands for its id',
    );
    assert.ok(byActor.body.data.every((e) => e.actorId === op.userId));
    for (const action of ['user.suspended', 'user.reinstated', 'settings.limits_updated'])
      assert.ok(
        byActor.body.data.some((e) => e.action === action && e.actorType === 'operator'),
        action,
      );
    const byAccount = await get<Page<AuditEntry>>(`/v1/operator/audit?account=${user.userId}`, op.token);
    assert.ok(byAccount.body.data.every((e) => e.userId === user.userId));
    assert.ok(
      byAccount.body.data.some((e) => e.action === 'user.registered' || e.action === 'domain.created'),
    );
    const future = await get<Page<AuditEntry>>('/v1/operator/audit?from=2999-01-01T00:00:00Z', op.token);
    assert.deepEqual(future.body.data, []);
    const past = await get<Page<AuditEntry>>('/v1/operator/audit?to=2000-01-01T00:00:00Z', op.token);
    assert.deepEqual(past.body.data, []);

    const all = await get<Page<AuditEntry>>('/v1/operator/audit?limit=200', op.token);
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const res = await get<Page<AuditEntry>>(`/v1/operator/audit?limit=2${cursor}`, op.token);
      seen.push(...res.body.data.map((e) => e.id));
      if (!res.body.nextCursor) break;
      cursor = `&cursor=${res.body.nextCursor}`;
    }
    assert.deepEqual(
      seen,
      all.body.data.map((e) => e.id),
    );
    assert.equal((await get('/v1/operator/audit?from=yesterday', op.token)).status, 422);
    // A date input's value: the whole UTC day.
    const today = new Date().toISOString().slice(0, 10);
    const byDay = await get<Page<AuditEntry>>(
      `/v1/operator/audit?from=${today}&to=${today}&limit=200`,
      op.token,
    );
    assert.equal(byDay.status, 200, byDay.text);
    assert.ok(byDay.body.data.length > 0);
  });

  it('ctl revoke-operator takes the role away on the next request', async () => {
    const revoked = await runCtl(app.env, ['accounts', 'revoke-operator', op.userId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await get('/v1/operator/audit', op.token)).status, 403);
    const entries = await db
      .selectFrom('audit_log')
      .select('action')
      .where('resource_id', '=', op.userId)
      .where('action', 'like', 'user.operator_%')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      entries.map((e) => e.action),
      ['user.operator_granted', 'user.operator_revoked'],
    );
  });
});
