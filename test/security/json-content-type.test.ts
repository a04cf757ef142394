import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { addVerifiedDomain } from '../helpers/verified-domain';

/**
 * A body sent without `Content-Type: application/json` is refused with 415 before the route
 * authenticates or counts a credential attempt: a cross-site "simple" POST (text/plain, or no
 * type) reaches neither login nor register (docs/api.md, request bodies).
 */
interface ErrorBody {
  error: { code: string; message: string };
}

/** The two kinds of body a cross-site form or `fetch` can send without a preflight. */
const SIMPLE = [
  ['text/plain', { 'content-type': 'text/plain' }],
  ['no content type', {}],
] as const;

async function raw(app: Appliance, method: string, path: string, body: string, headers: object) {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { ...headers },
    body: new Blob([body]),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('JSON bodies need Content-Type: application/json', () => {
  let dns: FakeDns;
  let app: Appliance;
  before(async () => {
    dns = await startDnsServer();
    app = await startAppliance({
      processes: ['api'],
      env: { DNS_SERVERS: dns.address, AUTH_RATE_LIMIT_PER_15_MIN: '4' },
    });
  });
  after(async () => {
    await app.stop();
    await dns.close();
  });

  it('login and register: 415, no account, no credential attempt counted', async () => {
    const email = 'csrf-victim@example.com';
    const creds = JSON.stringify({ email, password: 'correct horse battery staple', name: 'X' });
    for (const [what, headers] of SIMPLE) {
      for (const path of ['/v1/auth/register', '/v1/auth/login']) {
        const res = await raw(app, 'POST', path, creds, headers);
        assert.equal(res.status, 415, `${what} ${path}`);
        const err = (res.body as unknown as ErrorBody).error;
        assert.equal(err.code, 'UNSUPPORTED_MEDIA_TYPE');
        assert.match(err.message, /Content-Type: application\/json/);
      }
    }
    // Four refusals under a budget of four (the file's other calls spend two more): none was counted, and no account was made.
    const registered = await raw(app, 'POST', '/v1/auth/register', creds, {
      'content-type': 'Application/JSON; charset=UTF-8',
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const login = await app.api.post('/v1/auth/login', {
      body: { email, password: 'correct horse battery staple' },
    });
    assert.equal(login.status, 200);
  });

  it('/v1/emails and the Resend surface: 415 in their own shapes, nothing sent', async () => {
    const { apiKey, token } = await app.api.registerWithKey();
    await addVerifiedDomain(app, dns, token, 'ct.example.com');
    const send = JSON.stringify({ from: 'a@ct.example.com', to: 'r@example.org', subject: 's', text: 't' });
    const auth = { authorization: `Bearer ${apiKey}` };
    for (const [what, headers] of SIMPLE) {
      const v1 = await raw(app, 'POST', '/v1/emails', send, { ...auth, ...headers });
      assert.equal(v1.status, 415, what);
      assert.equal((v1.body as unknown as ErrorBody).error.code, 'UNSUPPORTED_MEDIA_TYPE');
      const resend = await raw(app, 'POST', '/emails', send, { ...auth, ...headers });
      assert.equal(resend.status, 415, what);
      assert.equal(resend.body.statusCode, 415);
      assert.equal(resend.body.name, 'validation_error');
      assert.match(String(resend.body.message), /Content-Type: application\/json/);
    }
    const structured = await raw(app, 'POST', '/v1/emails', send, {
      ...auth,
      'content-type': 'application/merge-patch+json',
    });
    assert.equal(structured.status, 415);
    const list = await app.api.get<{ data: unknown[] }>('/v1/emails', { token: apiKey });
    assert.equal(list.body.data.length, 0);
    const ok = await raw(app, 'POST', '/v1/emails', send, { ...auth, 'content-type': 'application/json' });
    assert.equal(ok.status, 202);
  });

  it('a route whose body is optional can be called without one', async () => {
    const { token } = await app.api.register();
    const created = await app.api.post<{ id: string }>('/v1/domains', {
      token,
      body: { domain: 'bare.example.com' },
    });
    const res = await fetch(`${app.baseUrl}/v1/domains/${created.body.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.notEqual(res.status, 415, await res.text());
  });
});
