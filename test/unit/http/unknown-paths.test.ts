// Issue 18 item 6: a path that does not exist is 404 NOT_FOUND, not 405 nor the
// not-found of the resource whose template it happens to fit.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseConfig } from '../../../src/config';
import type { Db } from '../../../src/db/connect';
import { startApiWriter } from '../../../src/api/api-writer';
import { createApp } from '../../../src/api/app';
import { SessionSigner } from '../../../src/modules/accounts/sessions';
import { ApiClient } from '../../helpers/http-client';
import { createTestDb } from '../../helpers/test-db';

type ErrorBody = { error: { code: string } };

describe('paths that do not exist', () => {
  let db: Db;
  let server: http.Server;
  let close: () => void;
  let api: ApiClient;
  let token: string;

  before(async () => {
    const testDb = await createTestDb();
    const dir = testDb.dataDir;
    const config = { ...parseConfig({ DATA_DIR: dir, DATABASE_URL: testDb.url }), secretKey: 'k'.repeat(32) };
    db = testDb.db;
    const app = createApp({
      db,
      // The writer thread starts with the first send; these tests send none.
      sendCommitter: startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) }),
      config,
      log: pino({ level: 'silent' }),
      sessions: new SessionSigner(config.secretKey, 60),
    });
    close = () => app.close();
    server = http.createServer(app.app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    api = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const reg = await api.post<{ token: string }>('/v1/auth/register', {
      body: { email: 'paths@example.com', password: 'a long password', name: 'Paths' },
    });
    token = reg.body.token;
  });
  after(async () => {
    close();
    await new Promise((r) => server.close(r));
    await db.destroy();
  });

  for (const [method, p] of [
    ['POST', '/v1/emails/metrics'],
    ['GET', '/v1/emails/metrics'],
    ['GET', '/v1/domains/verify'],
    ['DELETE', '/v1/api-keys/all'],
    ['GET', '/v1/inbound/unread'],
    ['GET', '/V1/EMAILS'],
  ] as const) {
    it(`${method} ${p} is 404 NOT_FOUND`, async () => {
      const res = await api.request<ErrorBody>(method, p, { token });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    });
  }

  it('keeps 405 for a literal route path under another method, with Allow', async () => {
    const res = await api.request<ErrorBody>('PUT', '/v1/auth/login');
    assert.equal(res.status, 405);
    assert.equal(res.body.error.code, 'METHOD_NOT_ALLOWED');
    assert.equal(res.headers.get('allow'), 'POST');
  });

  it('still answers the resource not-found for an id that has the id shape', async () => {
    const res = await api.get<ErrorBody>('/v1/emails/email_nope', { token });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'EMAIL_NOT_FOUND');
  });
});
