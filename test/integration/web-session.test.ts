// Issue 19: the dashboard's session cookie, its CSRF check and logout, on a running api.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { cookieValue, setCookies } from '../helpers/set-cookies';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('dashboard sessions by cookie (issue 19)', () => {
  let app: Appliance;
  let origin: string;
  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    origin = new URL(app.env.BASE_URL ?? `http://localhost:${app.ports.http}`).origin;
  });
  after(async () => {
    await app.stop();
  });

  async function signIn(): Promise<{ session: string; csrf: string; token: string; cookie: string }> {
    const { email, password } = await app.api.register();
    const res = await app.api.post<{ token: string }>('/v1/auth/login', { body: { email, password } });
    assert.equal(res.status, 200);
    const cookies = setCookies(res.headers);
    const session = cookieValue(cookies.get('mr_session'));
    const csrf = cookieValue(cookies.get('mr_csrf'));
    return { session, csrf, token: res.body.token, cookie: `mr_session=${session}; mr_csrf=${csrf}` };
  }

  it('login sets an HttpOnly SameSite=Strict session cookie and a readable CSRF cookie; the body keeps the token', async () => {
    const { email, password } = await app.api.register();
    const res = await app.api.post<{ token: string }>('/v1/auth/login', { body: { email, password } });
    const cookies = setCookies(res.headers);
    const session = cookies.get('mr_session') ?? '';
    assert.match(session, /; HttpOnly/);
    assert.match(session, /; SameSite=Strict/);
    // Path=/ exactly: the dashboard's pages are under /app/ (issue 30), its calls go to /v1.
    assert.match(session, /; Path=\/(?:;|$)/);
    assert.doesNotMatch(session, /Secure/, 'BASE_URL is http: no Secure');
    assert.equal(cookieValue(session), res.body.token);
    const csrf = cookies.get('mr_csrf') ?? '';
    assert.doesNotMatch(csrf, /HttpOnly/);
    assert.match(csrf, /; SameSite=Strict/);
    assert.match(csrf, /; Path=\/(?:;|$)/);
    assert.ok(cookieValue(csrf).length >= 40);
    const reg = await app.api.post('/v1/auth/register', {
      body: { email: 'cookie-reg@example.com', password: 'a long enough password', name: 'R' },
    });
    assert.equal(reg.status, 201);
    assert.ok(setCookies(reg.headers).has('mr_session'));
  });

  it('a GET authenticates by the cookie alone', async () => {
    const s = await signIn();
    const me = await app.api.get('/v1/auth/me', { headers: { cookie: s.cookie } });
    assert.equal(me.status, 200, me.text);
    const none = await app.api.get<ErrorBody>('/v1/auth/me', { headers: { cookie: 'mr_session=garbage' } });
    assert.equal(none.status, 401);
  });

  it('a cookie-authenticated state change without the CSRF header, or from another origin, is 403 CSRF_FAILED and changes nothing', async () => {
    const s = await signIn();
    const body = { name: 'csrf probe' };
    const cases: Record<string, string>[] = [
      { cookie: s.cookie },
      { cookie: s.cookie, 'x-csrf-token': 'not-the-token' },
      { cookie: `mr_session=${s.session}`, 'x-csrf-token': s.csrf },
      { cookie: s.cookie, 'x-csrf-token': s.csrf, origin: 'https://evil.example' },
      { cookie: s.cookie, 'x-csrf-token': s.csrf, origin: 'null' },
    ];
    for (const headers of cases) {
      const res = await app.api.post<ErrorBody>('/v1/api-keys', { headers, body });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(res.body.error.code, 'CSRF_FAILED');
    }
    const keys = await app.api.get<{ data: unknown[] }>('/v1/api-keys', { token: s.token });
    assert.deepEqual(keys.body.data, []);

    const ok = await app.api.post('/v1/api-keys', {
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, origin },
      body,
    });
    assert.equal(ok.status, 201, ok.text);
    // Bearer clients are unchanged: no CSRF header needed.
    const bearer = await app.api.post('/v1/api-keys', { token: s.token, body });
    assert.equal(bearer.status, 201, bearer.text);
  });

  it('logout revokes every session of the account and clears both cookies', async () => {
    const s = await signIn();
    const other = await app.api.get('/v1/auth/me', { token: s.token });
    assert.equal(other.status, 200);
    const out = await app.api.post('/v1/auth/logout', {
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, origin },
    });
    assert.equal(out.status, 204, out.text);
    const cleared = setCookies(out.headers);
    assert.match(cleared.get('mr_session') ?? '', /^mr_session=; .*Max-Age=0/);
    assert.match(cleared.get('mr_csrf') ?? '', /^mr_csrf=; .*Max-Age=0/);
    const byCookie = await app.api.get<ErrorBody>('/v1/auth/me', { headers: { cookie: s.cookie } });
    assert.equal(byCookie.status, 401);
    const byBearer = await app.api.get<ErrorBody>('/v1/auth/me', { token: s.token });
    assert.equal(byBearer.status, 401);
  });

  it('logout by cookie needs the CSRF token too', async () => {
    const s = await signIn();
    const res = await app.api.post<ErrorBody>('/v1/auth/logout', { headers: { cookie: s.cookie } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'CSRF_FAILED');
    assert.equal((await app.api.get('/v1/auth/me', { token: s.token })).status, 200);
  });

  it('an API key cannot log out (session only)', async () => {
    const s = await signIn();
    const key = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: s.token,
      body: { name: 'k' },
    });
    const res = await app.api.post<ErrorBody>('/v1/auth/logout', { token: key.body.token });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  });
});

describe('dashboard cookies under an https BASE_URL (issue 19)', () => {
  let app: Appliance;
  before(async () => {
    app = await startAppliance({ processes: ['api'], env: { BASE_URL: 'https://mail.example.test' } });
  });
  after(async () => {
    await app.stop();
  });

  it('marks both cookies Secure and takes BASE_URL as the only origin', async () => {
    const { email, password } = await app.api.register();
    const res = await app.api.post('/v1/auth/login', { body: { email, password } });
    const cookies = setCookies(res.headers);
    // Under https the names carry the __Host- prefix (issue 28; test/security/small-boundaries).
    assert.match(cookies.get('__Host-mr_session') ?? '', /; Secure/);
    assert.match(cookies.get('__Host-mr_csrf') ?? '', /; Secure/);
    // The prefix holds only with Path=/ (the browser drops the cookie otherwise), which the SPA under
    // /app/ needs anyway to send it to /v1 (issue 30).
    for (const name of ['__Host-mr_session', '__Host-mr_csrf'])
      assert.match(cookies.get(name) ?? '', /; Path=\/(?:;|$)/, name);
    const session = cookieValue(cookies.get('__Host-mr_session'));
    const csrf = cookieValue(cookies.get('__Host-mr_csrf'));
    const headers = { cookie: `__Host-mr_session=${session}; __Host-mr_csrf=${csrf}`, 'x-csrf-token': csrf };
    const local = await app.api.post<ErrorBody>('/v1/api-keys', {
      headers: { ...headers, origin: `http://127.0.0.1:${app.ports.http}` },
      body: { name: 'k' },
    });
    assert.equal(local.status, 403);
    const ok = await app.api.post('/v1/api-keys', {
      headers: { ...headers, origin: 'https://mail.example.test' },
      body: { name: 'k' },
    });
    assert.equal(ok.status, 201, ok.text);
  });
});
