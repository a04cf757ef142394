// Issue 28 item 9, on a running api: the User-Agent an /internal operator action audits is
// bounded; an operator cannot suspend its own account; a Resend path is the Resend API's whatever
// Accept says (issue 30: the dashboard is under /app/); an anonymous API call to a Resend path no
// route answers gets Resend's 401, never the dashboard's page; under an https BASE_URL the
// session cookies carry the `__Host-` prefix; sessions issued before a suspension stay dead
// after reinstatement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { runCtl } from '../helpers/ctl';
import { cookieValue, setCookies } from '../helpers/set-cookies';

interface ErrorBody {
  error: { code: string; message: string };
}
interface ResendError {
  statusCode: number;
  name: string;
  message: string;
}
interface AuditEntry {
  action: string;
  actorType: string;
  userAgent: string | null;
}

describe('operator actions, shared paths and sessions (issue 28 item 9)', () => {
  let app: Appliance;
  let op: { token: string; userId: string; email: string };

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    op = await app.api.register(`operator-${Date.now()}@example.com`);
    const granted = await runCtl(app.env, ['accounts', 'grant-operator', op.email]);
    assert.equal(granted.code, 0, granted.stderr);
  });
  after(async () => {
    await app.stop();
  });

  it('an /internal operator action audits at most 512 characters of its User-Agent', async () => {
    const user = await app.api.register();
    const res = await app.api.post(`/internal/accounts/${user.userId}/suspend`, {
      headers: { 'x-internal-token': app.internalToken, 'user-agent': `ua-${'x'.repeat(4_997)}` },
      body: { reason: 'long agent' },
    });
    assert.equal(res.status, 200, res.text);
    const audit = await app.api.get<{ data: AuditEntry[] }>(
      `/v1/operator/audit?target=${user.userId}&action=user.suspended`,
      { token: op.token },
    );
    assert.equal(audit.status, 200, audit.text);
    const entry = audit.body.data[0];
    assert.equal(entry?.actorType, 'operator');
    assert.equal(entry.userAgent?.length, 512);
    assert.ok(entry.userAgent.startsWith('ua-xxx'));
  });

  it('an operator cannot suspend its own account; another account it can', async () => {
    const self = await app.api.post<ErrorBody>(`/v1/operator/accounts/${op.userId}/suspend`, {
      token: op.token,
      body: { reason: 'oops' },
    });
    assert.equal(self.status, 403, self.text);
    assert.equal(self.body.error.code, 'CANNOT_SUSPEND_SELF');
    const me = await app.api.get<{ status: string }>('/v1/auth/me', { token: op.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.status, 'ACTIVE');

    const other = await app.api.register();
    const suspended = await app.api.post<{ status: string }>(
      `/v1/operator/accounts/${other.userId}/suspend`,
      { token: op.token, body: { reason: 'spam' } },
    );
    assert.equal(suspended.status, 200, suspended.text);
    assert.equal(suspended.body.status, 'SUSPENDED');
  });

  it('a Resend path answers as the Resend API whatever Accept says: never the dashboard (issue 30)', async () => {
    const { apiKey } = await app.api.registerWithKey();
    for (const path of ['/emails', '/domains', '/api-keys']) {
      for (const accept of ['text/html', 'application/json']) {
        const what = `${path} (${accept})`;
        const anonymous = await app.api.get<ResendError>(path, { headers: { accept } });
        assert.equal(anonymous.status, 401, `${what}: ${anonymous.text.slice(0, 200)}`);
        assert.match(anonymous.headers.get('content-type') ?? '', /application\/json/, what);
        assert.equal(anonymous.body.name, 'missing_api_key', what);
        const json = await app.api.get<{ object: string }>(path, { token: apiKey, headers: { accept } });
        assert.equal(json.status, 200, `${what}: ${json.text}`);
        assert.equal(json.body.object, 'list', what);
      }
    }
  });

  it('an anonymous API call to a Resend path no route answers gets 401 in Resend shape, not the dashboard', async () => {
    const paths = [
      // Unsupported features, under an unsupported resource and under supported ones.
      '/audiences',
      '/broadcasts/abc',
      '/emails/receiving',
      '/emails/abc/attachments',
      '/domains/claim',
      '/webhooks/abc/events',
      // Paths Resend does not have at all, shaped like the dashboard's screens.
      '/domains/abc/nothing',
      '/api-keys/abc/def',
      '/emails/abc/nothing',
    ];
    for (const accept of ['application/json', '*/*']) {
      for (const path of paths) {
        const res = await app.api.get<ResendError>(path, { headers: { accept } });
        const what = `${accept} ${path}: ${res.status} ${res.text.slice(0, 120)}`;
        assert.equal(res.status, 401, what);
        assert.match(res.headers.get('content-type') ?? '', /application\/json/, what);
        assert.equal(res.body.statusCode, 401, what);
        assert.equal(res.body.name, 'missing_api_key', what);
      }
    }
    // Authenticated, the unsupported feature is named (501) and the unknown path is a 404.
    const { apiKey } = await app.api.registerWithKey();
    const feature = await app.api.get<ResendError>('/emails/receiving', { token: apiKey });
    assert.equal(feature.status, 501, feature.text);
    const unknown = await app.api.get<ResendError>('/domains/abc/nothing', { token: apiKey });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.name, 'not_found');
    // A browser's page load of a former dashboard screen is the API's too (issue 30).
    const page = await app.api.get<ResendError>('/emails/abc', { headers: { accept: 'text/html' } });
    assert.equal(page.status, 401, page.text);
    assert.equal(page.body.name, 'missing_api_key');
  });

  it('a session issued before a suspension is refused after reinstatement; a new login works', async () => {
    const user = await app.api.register();
    const login = () =>
      app.api.post<{ token: string }>('/v1/auth/login', {
        body: { email: user.email, password: user.password },
      });
    const before = await login();
    assert.equal(before.status, 200, before.text);
    const internal = { 'x-internal-token': app.internalToken };
    const suspended = await app.api.post(`/internal/accounts/${user.userId}/suspend`, {
      headers: internal,
      body: { reason: 'abuse' },
    });
    assert.equal(suspended.status, 200, suspended.text);
    const back = await app.api.post(`/internal/accounts/${user.userId}/reinstate`, { headers: internal });
    assert.equal(back.status, 200, back.text);
    for (const token of [user.token, before.body.token]) {
      const me = await app.api.get<ErrorBody>('/v1/auth/me', { token });
      assert.equal(me.status, 401, me.text);
      assert.equal(me.body.error.code, 'UNAUTHORIZED');
    }
    const again = await login();
    assert.equal(again.status, 200, again.text);
    assert.equal((await app.api.get('/v1/auth/me', { token: again.body.token })).status, 200);

    // The operator screen's reinstatement ends them too.
    for (const step of ['suspend', 'reinstate']) {
      const res = await app.api.post(`/v1/operator/accounts/${user.userId}/${step}`, {
        token: op.token,
        body: { reason: `test ${step}` },
      });
      assert.equal(res.status, 200, res.text);
    }
    assert.equal((await app.api.get('/v1/auth/me', { token: again.body.token })).status, 401);
    assert.equal((await login()).status, 200);
  });

  it('under an http BASE_URL the cookies keep their plain names', async () => {
    const user = await app.api.register();
    const res = await app.api.post('/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    const cookies = setCookies(res.headers);
    assert.deepEqual([...cookies.keys()].sort(), ['mr_csrf', 'mr_session']);
    const session = cookieValue(cookies.get('mr_session'));
    const me = await app.api.get('/v1/auth/me', { headers: { cookie: `mr_session=${session}` } });
    assert.equal(me.status, 200, me.text);
  });
});

describe('session cookies under an https BASE_URL (issue 28 item 9)', () => {
  let app: Appliance;
  const origin = 'https://mail.example.test';
  before(async () => {
    app = await startAppliance({ processes: ['api'], env: { BASE_URL: origin } });
  });
  after(async () => {
    await app.stop();
  });

  it('sets __Host- cookies (Secure, Path=/, no Domain) and accepts no plain-named one', async () => {
    const user = await app.api.register();
    const res = await app.api.post('/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(res.status, 200, res.text);
    const cookies = setCookies(res.headers);
    assert.deepEqual([...cookies.keys()].sort(), ['__Host-mr_csrf', '__Host-mr_session']);
    for (const line of cookies.values()) {
      assert.match(line, /; Secure(;|$)/, line);
      assert.match(line, /; Path=\/(;|$)/, line);
      assert.doesNotMatch(line, /domain=/i, line);
    }
    const session = cookieValue(cookies.get('__Host-mr_session'));
    const csrf = cookieValue(cookies.get('__Host-mr_csrf'));

    const me = await app.api.get('/v1/auth/me', { headers: { cookie: `__Host-mr_session=${session}` } });
    assert.equal(me.status, 200, me.text);
    const plain = await app.api.get<ErrorBody>('/v1/auth/me', {
      headers: { cookie: `mr_session=${session}` },
    });
    assert.equal(plain.status, 401, plain.text);

    // A state change needs the prefixed CSRF cookie; a planted plain one does not count.
    const planted = await app.api.post<ErrorBody>('/v1/api-keys', {
      headers: { cookie: `__Host-mr_session=${session}; mr_csrf=planted`, 'x-csrf-token': 'planted', origin },
      body: { name: 'k' },
    });
    assert.equal(planted.status, 403, planted.text);
    assert.equal(planted.body.error.code, 'CSRF_FAILED');
    const ok = await app.api.post('/v1/api-keys', {
      headers: {
        cookie: `__Host-mr_session=${session}; __Host-mr_csrf=${csrf}`,
        'x-csrf-token': csrf,
        origin,
      },
      body: { name: 'k' },
    });
    assert.equal(ok.status, 201, ok.text);

    const out = await app.api.post('/v1/auth/logout', {
      headers: {
        cookie: `__Host-mr_session=${session}; __Host-mr_csrf=${csrf}`,
        'x-csrf-token': csrf,
        origin,
      },
    });
    assert.equal(out.status, 204, out.text);
    const cleared = setCookies(out.headers);
    assert.match(cleared.get('__Host-mr_session') ?? '', /^__Host-mr_session=; .*Max-Age=0/);
    assert.match(cleared.get('__Host-mr_csrf') ?? '', /^__Host-mr_csrf=; .*Max-Age=0/);
  });
});
