import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('accounts, sessions and API keys over HTTP', () => {
  let app: Appliance;
  before(async () => {
    app = await startAppliance({ processes: ['api'] });
  });
  after(async () => {
    await app.stop();
  });

  it('registers, logs in and reads the account', async () => {
    const email = 'Alice@Example.com';
    const reg = await app.api.post<{ token: string; user: { id: string; email: string; name: string } }>(
      '/v1/auth/register',
      { body: { email, password: 'a long enough password', name: 'Alice' } },
    );
    assert.equal(reg.status, 201);
    assert.match(reg.body.user.id, /^usr_/);
    assert.equal(reg.body.user.email, 'alice@example.com');
    assert.equal(reg.body.user.name, 'Alice');

    const dup = await app.api.post<ErrorBody>('/v1/auth/register', {
      body: { email: 'alice@example.com', password: 'another long password', name: 'A' },
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'EMAIL_ALREADY_REGISTERED');

    const login = await app.api.post<{ token: string; user: { id: string } }>('/v1/auth/login', {
      body: { email: 'alice@example.com', password: 'a long enough password' },
    });
    assert.equal(login.status, 200);
    assert.equal(login.body.user.id, reg.body.user.id);

    const me = await app.api.get('/v1/auth/me', { token: login.body.token });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, {
      id: reg.body.user.id,
      email: 'alice@example.com',
      name: 'Alice',
      status: 'ACTIVE',
      role: 'user',
    });
  });

  it('answers bad credentials and bad input with the spec error shape', async () => {
    const user = await app.api.register();
    const wrong = await app.api.post<ErrorBody>('/v1/auth/login', {
      body: { email: user.email, password: 'nope' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    const unknown = await app.api.post<ErrorBody>('/v1/auth/login', {
      body: { email: 'nobody@example.com', password: 'whatever it is' },
    });
    assert.equal(unknown.body.error.code, 'INVALID_CREDENTIALS');

    const invalid = await app.api.post<ErrorBody>('/v1/auth/register', {
      body: { email: 'not-an-email', password: 'short', name: '' },
    });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.error.code, 'VALIDATION_ERROR');
    const fields = (invalid.body.error.details?.fields as { field: string }[]).map((f) => f.field).sort();
    assert.deepEqual(fields, ['email', 'name', 'password']);

    const malformed = await app.api.post<ErrorBody>('/v1/auth/login', { body: '{"email": ' });
    assert.equal(malformed.status, 422);
    assert.equal(malformed.body.error.code, 'VALIDATION_ERROR');

    const missing = await app.api.get<ErrorBody>('/v1/auth/me');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, 'UNAUTHORIZED');
    const basic = await app.api.get<ErrorBody>('/v1/auth/me', { headers: { authorization: 'Basic abc' } });
    assert.equal(basic.body.error.code, 'UNAUTHORIZED');
    const badKey = await app.api.get<ErrorBody>('/v1/auth/me', { token: 're_live_doesnotexist' });
    assert.equal(badKey.status, 401);
    assert.equal(badKey.body.error.code, 'INVALID_API_KEY');

    const route = await app.api.get<ErrorBody>('/v1/nothing-here');
    assert.equal(route.status, 404);
    assert.equal(route.body.error.code, 'NOT_FOUND');
    const method = await app.api.request<ErrorBody>('PUT', '/v1/auth/login');
    assert.equal(method.status, 405);
    assert.equal(method.body.error.code, 'METHOD_NOT_ALLOWED');
  });

  it('refuses forged or tampered session tokens', async () => {
    const user = await app.api.register();
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_someoneelse' })).toString(
      'base64url',
    );
    const tampered = await app.api.get<ErrorBody>('/v1/auth/me', {
      token: `${header}.${forgedPayload}.${signature}`,
    });
    assert.equal(tampered.status, 401);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const unsigned = await app.api.get<ErrorBody>('/v1/auth/me', { token: `${none}.${payload}.x` });
    assert.equal(unsigned.status, 401);
    assert.equal(unsigned.body.error.code, 'UNAUTHORIZED');
    assert.equal((await app.api.get('/v1/auth/me', { token: user.token })).status, 200);
  });

  it('changing the password ends earlier sessions', async () => {
    const user = await app.api.register();
    const wrong = await app.api.post<ErrorBody>('/v1/auth/change-password', {
      token: user.token,
      body: { currentPassword: 'not it', newPassword: 'a brand new password' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    const ok = await app.api.post<{ token: string }>('/v1/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a brand new password' },
    });
    assert.equal(ok.status, 200);
    assert.equal((await app.api.get('/v1/auth/me', { token: user.token })).status, 401);
    assert.equal((await app.api.get('/v1/auth/me', { token: ok.body.token })).status, 200);
    const relogin = await app.api.post('/v1/auth/login', {
      body: { email: user.email, password: 'a brand new password' },
    });
    assert.equal(relogin.status, 200);
  });

  it('creates, lists and revokes API keys; sending keys cannot manage keys', async () => {
    const user = await app.api.register();
    const created = await app.api.post<Record<string, string>>('/v1/api-keys', {
      token: user.token,
      body: { name: 'server', mode: 'live' },
    });
    assert.equal(created.status, 201);
    const key = created.body;
    assert.match(key.id ?? '', /^key_/);
    assert.match(key.token ?? '', /^re_live_[A-Za-z0-9_-]{40,}$/);
    assert.ok(key.token?.startsWith(key.keyPrefix ?? 'x'));
    assert.match(key.keyPrefix ?? '', /^re_live_/);
    assert.ok((key.warning ?? '').length > 0);

    // `live` and `test` (issue 21, test/integration/test-mode.test.ts) are the modes.
    const badMode = await app.api.post<ErrorBody>('/v1/api-keys', {
      token: user.token,
      body: { name: 'x', mode: 'sandbox' },
    });
    assert.equal(badMode.body.error.code, 'VALIDATION_ERROR');

    const me = await app.api.get<{ id: string }>('/v1/auth/me', { token: key.token });
    assert.equal(me.body.id, user.userId);

    // Issue 20: the spec's "an API key cannot create another API key" holds for sending keys.
    const sender = await app.api.post<Record<string, string>>('/v1/api-keys', {
      token: user.token,
      body: { name: 'sender', permission: 'sending_access' },
    });
    assert.equal(sender.status, 201, sender.text);
    const byKey = await app.api.post<ErrorBody>('/v1/api-keys', {
      token: sender.body.token,
      body: { name: 'x' },
    });
    assert.equal(byKey.status, 403);
    assert.equal(byKey.body.error.code, 'FORBIDDEN');

    const list = await app.api.get<{ data: Record<string, unknown>[] }>('/v1/api-keys', {
      token: user.token,
    });
    assert.equal(list.body.data.length, 2);
    assert.equal(list.body.data[0]?.token, undefined);
    assert.ok(!list.text.includes(key.token ?? 'x'));

    const other = await app.api.register();
    const foreign = await app.api.delete<ErrorBody>(`/v1/api-keys/${key.id}`, { token: other.token });
    assert.equal(foreign.status, 404);
    assert.equal((await app.api.get('/v1/auth/me', { token: key.token })).status, 200);

    const revoked = await app.api.delete<{ revokedAt: string }>(`/v1/api-keys/${key.id}`, {
      token: user.token,
    });
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    const after = await app.api.get<ErrorBody>('/v1/auth/me', { token: key.token });
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'INVALID_API_KEY');
  });

  it('operator suspension stops every key and session at once; reinstating clears it', async () => {
    const { token, apiKey, userId } = await app.api.registerWithKey();
    const closed = await app.api.post<ErrorBody>(`/internal/accounts/${userId}/suspend`, {
      body: { reason: 'x' },
    });
    assert.equal(closed.status, 401);
    const wrongToken = await app.api.post(`/internal/accounts/${userId}/suspend`, {
      headers: { 'x-internal-token': 'wrong-token-wrong-token-wrong' },
      body: { reason: 'x' },
    });
    assert.equal(wrongToken.status, 401);

    const headers = { 'x-internal-token': app.internalToken };
    const suspended = await app.api.post<{ status: string; suspensionReason: string; suspendedAt: string }>(
      `/internal/accounts/${userId}/suspend`,
      { headers, body: { reason: 'spam complaints' } },
    );
    assert.equal(suspended.status, 200);
    assert.equal(suspended.body.status, 'SUSPENDED');
    assert.equal(suspended.body.suspensionReason, 'spam complaints');
    for (const t of [token, apiKey]) {
      const res = await app.api.get<ErrorBody>('/v1/auth/me', { token: t });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'ACCOUNT_SUSPENDED');
    }

    const reinstated = await app.api.post<{ status: string; suspensionReason: null; suspendedAt: null }>(
      `/internal/accounts/${userId}/reinstate`,
      { headers },
    );
    assert.equal(reinstated.body.status, 'ACTIVE');
    assert.equal(reinstated.body.suspensionReason, null);
    assert.equal(reinstated.body.suspendedAt, null);
    assert.equal((await app.api.get('/v1/auth/me', { token: apiKey })).status, 200);

    const limits = await app.api.patch<{ emailsPerHour: number; emailsPerDay: number | null }>(
      `/internal/accounts/${userId}/limits`,
      { headers, body: { emailsPerHour: 5000, emailsPerDay: null } },
    );
    assert.equal(limits.status, 200);
    assert.equal(limits.body.emailsPerHour, 5000);
    assert.equal(limits.body.emailsPerDay, null);
    const unknown = await app.api.post<ErrorBody>('/internal/accounts/usr_nope/suspend', {
      headers,
      body: { reason: 'x' },
    });
    assert.equal(unknown.status, 404);
  });

  it('the CLI suspends by email and the audit log records who did what', async () => {
    const user = await app.api.register();
    const out = await runCtl(app.env, ['accounts', 'suspend', user.email, '--reason', 'manual review']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal((JSON.parse(out.stdout) as { status: string }).status, 'SUSPENDED');
    const res = await app.api.get<ErrorBody>('/v1/auth/me', { token: user.token });
    assert.equal(res.body.error.code, 'ACCOUNT_SUSPENDED');

    const audit = await runCtl(app.env, ['audit', 'list', '--json', '--account', user.userId]);
    assert.equal(audit.code, 0, audit.stderr);
    const entries = audit.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { action: string; actorType: string; ip: string | null; userAgent: string | null },
      );
    const actions = entries.map((e) => e.action);
    assert.ok(actions.includes('user.registered'));
    assert.ok(actions.includes('user.suspended'));
    const registered = entries.find((e) => e.action === 'user.registered');
    assert.equal(registered?.ip, '127.0.0.1');
    assert.ok(registered?.userAgent);
    assert.equal(entries.find((e) => e.action === 'user.suspended')?.actorType, 'operator');

    // Without --json: a table naming the actors in words, the CLI's operator by its login user
    // even where no USER is set (docker exec).
    const env = { ...app.env, USER: '', LOGNAME: '', SUDO_USER: 'alice' };
    assert.equal((await runCtl(env, ['accounts', 'reinstate', user.email])).code, 0);
    const table = await runCtl(app.env, ['audit', 'list', '--account', user.userId]);
    assert.equal(table.code, 0, table.stderr);
    const [header, newest, ...rest] = table.stdout.trimEnd().split('\n');
    assert.match(header ?? '', /^TIME +ACTOR +ACTION +RESOURCE +ACCOUNT +FROM$/);
    assert.match(
      newest ?? '',
      new RegExp(
        `operator alice \\(ctl\\) +user\\.reinstated +user ${user.email.replace(/\./g, '\\.')} +${user.email.replace(/\./g, '\\.')}`,
      ),
    );
    assert.ok(
      rest.some((l) => l.includes(`${user.email}  `) && l.includes('user.registered')),
      table.stdout,
    );
    assert.ok(!table.stdout.includes('cli:unknown'));
    const accounts = await runCtl(app.env, ['accounts', 'list']);
    assert.match(
      accounts.stdout.split('\n')[0] ?? '',
      /^ID +EMAIL +STATUS +ROLE +PER HOUR +PER DAY +CREATED$/,
    );
    assert.ok(accounts.stdout.includes(user.email));
    const json = JSON.parse((await runCtl(app.env, ['accounts', 'list', '--json'])).stdout) as unknown[];
    assert.ok(Array.isArray(json) && json.length > 0);
  });

  it('never writes passwords or tokens to the logs', async () => {
    const { apiKey, token } = await app.api.registerWithKey();
    await app.api.get('/v1/auth/me', { token: apiKey });
    const all = app.lines.join('\n');
    assert.ok(!all.includes('correct horse battery staple'));
    assert.ok(!all.includes(apiKey));
    assert.ok(!all.includes(token));
    for (const line of app.lines) {
      const parsed = JSON.parse(line) as { event?: unknown };
      assert.equal(typeof parsed.event, 'string', line);
    }
  });
});

describe('HTTP rate limits', () => {
  let app: Appliance;
  before(async () => {
    app = await startAppliance({
      processes: ['api'],
      env: { HTTP_RATE_LIMIT_PER_MINUTE: '40', AUTH_RATE_LIMIT_PER_15_MIN: '3' },
    });
  });
  after(async () => {
    await app.stop();
  });

  it('limits credential attempts per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await app.api.post('/v1/auth/login', { body: { email: 'x@example.com', password: 'y' } })).status,
      );
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });

  it('limits all requests per IP with Retry-After', async () => {
    let limited: Awaited<ReturnType<typeof app.api.get<ErrorBody>>> | undefined;
    for (let i = 0; i < 60 && !limited; i++) {
      const res = await app.api.get<ErrorBody>('/health');
      if (res.status === 429) limited = res;
    }
    assert.ok(limited, 'no 429 within 60 requests at a limit of 40/min');
    assert.equal(limited.body.error.code, 'RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1);
    assert.match(limited.headers.get('ratelimit') ?? '', new RegExp(`^"[\\w:]+";r=0;t=${retryAfter}$`));
  });
});
