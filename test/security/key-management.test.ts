import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';

/**
 * Spec, Authentication 3: "Creating or revoking API keys requires a session token. An API
 * key cannot create another API key." A full_access key (the default) and even a test key
 * minted live keys, on /v1 and on the Resend surface; every API key now gets 403.
 */
interface KeyBody {
  id: string;
  token: string;
  revokedAt: string | null;
}
interface V1Error {
  error: { code: string; message: string };
}
interface ResendError {
  statusCode: number;
  name: string;
  message: string;
}

describe('API keys never create or revoke API keys, on either surface', () => {
  let app: Appliance;
  let session: string;
  const callers: Record<string, string> = {};
  let target: KeyBody;

  const createV1 = (token: string, body: Record<string, unknown>) =>
    app.api.post<KeyBody & V1Error>('/v1/api-keys', { token, body });
  const keys = async () =>
    (await app.api.get<{ data: KeyBody[] }>('/v1/api-keys', { token: session })).body.data;

  before(async () => {
    app = await startAppliance({ processes: ['api'] });
    const registered = await app.api.registerWithKey();
    session = registered.token;
    callers['full_access live key'] = registered.apiKey;
    for (const [name, body] of [
      ['sending_access live key', { name: 'sender', permission: 'sending_access' }],
      ['full_access test key', { name: 'trial', mode: 'test' }],
    ] as const) {
      const made = await createV1(session, body);
      assert.equal(made.status, 201, made.text);
      callers[name] = made.body.token;
    }
    const made = await createV1(session, { name: 'target' });
    assert.equal(made.status, 201, made.text);
    target = made.body;
  });
  after(async () => {
    await app.stop();
  });

  it('every API key gets 403 FORBIDDEN naming the rule, and nothing is created or revoked', async () => {
    const before = (await keys()).map((k) => [k.id, k.revokedAt]);
    assert.equal(before.length, 4);
    for (const [caller, token] of Object.entries(callers)) {
      const attempts = [
        ['POST', '/v1/api-keys', { name: 'minted', mode: 'live' }],
        ['DELETE', `/v1/api-keys/${target.id}`, undefined],
      ] as const;
      for (const [method, path, body] of attempts) {
        const res = await app.api.request<V1Error>(method, path, { token, body });
        assert.equal(res.status, 403, `${caller} ${method} ${path}: ${res.text}`);
        assert.equal(res.body.error.code, 'FORBIDDEN', `${caller} ${method} ${path}`);
        assert.match(res.body.error.message, /requires a session token/);
      }
      for (const [method, path, body] of [
        ['POST', '/api-keys', { name: 'minted' }],
        ['DELETE', `/api-keys/${target.id}`, undefined],
      ] as const) {
        const res = await app.api.request<ResendError>(method, path, { token, body });
        assert.equal(res.status, 403, `${caller} ${method} ${path}: ${res.text}`);
        assert.equal(res.body.statusCode, 403);
        assert.equal(res.body.name, 'restricted_api_key', `${caller} ${method} ${path}`);
        assert.match(res.body.message, /requires a session token: an API key cannot create or revoke/);
      }
    }
    assert.deepEqual(
      (await keys()).map((k) => [k.id, k.revokedAt]),
      before,
      'no key was created and none revoked',
    );
  });

  it('a session still creates and revokes on both surfaces', async () => {
    const v1 = await createV1(session, { name: 'by session' });
    assert.equal(v1.status, 201, v1.text);
    const resend = await app.api.post<{ id: string; token: string }>('/api-keys', {
      token: session,
      body: { name: 'by session, resend' },
    });
    assert.equal(resend.status, 200, resend.text);
    assert.ok(resend.body.token.startsWith('re_live_'));
    const revokedV1 = await app.api.delete<KeyBody>(`/v1/api-keys/${v1.body.id}`, { token: session });
    assert.equal(revokedV1.status, 200, revokedV1.text);
    assert.ok(revokedV1.body.revokedAt);
    const revokedResend = await app.api.delete<{ deleted: boolean }>(`/api-keys/${resend.body.id}`, {
      token: session,
    });
    assert.equal(revokedResend.status, 200, revokedResend.text);
    assert.equal(revokedResend.body.deleted, true);
  });

  it('listing needs no session: a full_access key lists the keys, never their tokens', async () => {
    const token = callers['full_access live key'] ?? '';
    const v1 = await app.api.get<{ data: Record<string, unknown>[] }>('/v1/api-keys', { token });
    assert.equal(v1.status, 200, v1.text);
    assert.ok(v1.body.data.length >= 4);
    assert.ok(v1.body.data.every((k) => !('token' in k)));
    const resend = await app.api.get('/api-keys', { token });
    assert.equal(resend.status, 200, resend.text);
  });
});
