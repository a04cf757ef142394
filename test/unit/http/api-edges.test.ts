// Issue 18 item 6: the API's edges answer one way. Every list route refuses an unknown
// query parameter (a bad cursor, a `limit` where there is no paging) naming it as
// `query.<name>`; the paged ones honour `limit`; every kind of VALIDATION_ERROR carries
// `details.fields[]` of `{field, message}` (docs/api.md, Errors).
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
import { insertInbound } from '../../../src/modules/inbound/inbound.repository';
import { newId } from '../../../src/shared/ids';
import type { JsonResponse } from '../../helpers/http-client';
import { ApiClient } from '../../helpers/http-client';
import { inboundMessageRow, insertEmail } from '../../helpers/email-fixtures';
import { createTestDb } from '../../helpers/test-db';

type Fields = { field: string; message: string }[];
type ErrorBody = { error: { code: string; message: string; details?: { fields?: Fields } } };
type Page = { data: unknown[]; hasMore?: boolean; nextCursor?: string | null };

const INTERNAL_TOKEN = 'i'.repeat(32);

/** The one shape of a VALIDATION_ERROR; returns the fields it names. */
function assertValidationError(res: JsonResponse<ErrorBody>): string[] {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  const fields = res.body.error.details?.fields;
  assert.ok(Array.isArray(fields) && fields.length > 0, `details.fields missing: ${res.text}`);
  for (const f of fields) {
    assert.equal(typeof f.field, 'string');
    assert.equal(typeof f.message, 'string');
    assert.ok(f.message.length > 0);
  }
  return fields.map((f) => f.field);
}

describe('API edges', () => {
  let db: Db;
  let server: http.Server;
  let close: () => void;
  let api: ApiClient;
  let token: string;

  before(async () => {
    const testDb = await createTestDb();
    const dir = testDb.dataDir;
    const config = {
      ...parseConfig({ DATA_DIR: dir, DATABASE_URL: testDb.url }),
      secretKey: 'k'.repeat(32),
      internalApiToken: INTERNAL_TOKEN,
    };
    db = testDb.db;
    const writer = startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) });
    const app = createApp({
      db,
      sendCommitter: writer,
      config,
      log: pino({ level: 'silent' }),
      sessions: new SessionSigner(config.secretKey, 60),
    });
    close = () => {
      app.close();
      void writer.close();
    };
    server = http.createServer(app.app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    api = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const reg = await api.post<{ token: string; user: { id: string } }>('/v1/auth/register', {
      body: { email: 'edges@example.com', password: 'a long password', name: 'Edges' },
    });
    token = reg.body.token;
    const userId = reg.body.user.id;
    const domain = await api.post<{ id: string }>('/v1/domains', {
      token,
      body: { domain: 'edges.example.com' },
    });
    assert.equal(domain.status, 201, domain.text);
    // Two rows in every paged list, so that `limit=1` leaves one for the next page.
    for (const email of ['a@example.org', 'b@example.org']) {
      const s = await api.post('/v1/suppressions', { token, body: { email, type: 'manual' } });
      assert.equal(s.status, 201, s.text);
    }
    for (let i = 0; i < 2; i++) {
      const at = new Date(Date.now() - i * 1000).toISOString();
      await insertEmail(db, { userId, domainId: domain.body.id }, { status: 'queued', createdAt: at });
      await insertInbound(
        db,
        inboundMessageRow({
          user_id: userId,
          received_at: at,
          from_address: 'x@example.org',
          from_header: 'x@example.org',
          subject: 'hi',
          text: 'hi',
        }),
        [],
      );
    }
  });
  after(async () => {
    close();
    await new Promise((r) => server.close(r));
    await db.destroy();
  });

  const paged = ['/v1/emails', '/v1/inbound', '/v1/suppressions'];
  const unpaged = ['/v1/domains', '/v1/webhooks', '/v1/api-keys'];

  for (const route of [...paged, ...unpaged]) {
    it(`GET ${route}?nope=1 names the unknown parameter`, async () => {
      const res = await api.get<ErrorBody>(`${route}?nope=1`, { token });
      assert.deepEqual(assertValidationError(res), ['query.nope']);
    });

    it(`GET ${route}?cursor=garbage is refused as query.cursor`, async () => {
      const res = await api.get<ErrorBody>(`${route}?cursor=garbage`, { token });
      assert.deepEqual(assertValidationError(res), ['query.cursor']);
    });
  }

  for (const route of paged) {
    it(`GET ${route} honours limit and pages on with its cursor`, async () => {
      const first = await api.get<Page>(`${route}?limit=1`, { token });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.data.length, 1);
      assert.equal(first.body.hasMore, true);
      const cursor = first.body.nextCursor ?? '';
      const second = await api.get<Page>(`${route}?limit=1&cursor=${encodeURIComponent(cursor)}`, { token });
      assert.equal(second.status, 200, second.text);
      assert.equal(second.body.data.length, 1);
      assert.notDeepEqual(second.body.data[0], first.body.data[0]);
      for (const bad of ['0', '101', 'ten']) {
        const res = await api.get<ErrorBody>(`${route}?limit=${bad}`, { token });
        assert.deepEqual(assertValidationError(res), ['query.limit']);
      }
    });
  }

  for (const route of unpaged) {
    it(`GET ${route} has no paging: limit is an unknown parameter`, async () => {
      const all = await api.get<Page>(route, { token });
      assert.equal(all.status, 200, all.text);
      const res = await api.get<ErrorBody>(`${route}?limit=1`, { token });
      assert.deepEqual(assertValidationError(res), ['query.limit']);
    });
  }

  it('a route without query parameters refuses one, POST included', async () => {
    assert.deepEqual(assertValidationError(await api.get<ErrorBody>('/v1/auth/me?x=1', { token })), [
      'query.x',
    ]);
    const post = await api.post<ErrorBody>('/v1/suppressions?dryRun=1', {
      token,
      body: { email: 'c@example.org', type: 'manual' },
    });
    assert.deepEqual(assertValidationError(post), ['query.dryRun']);
    const list = await api.get<Page>('/v1/suppressions', { token });
    assert.equal(list.body.data.length, 2, 'the refused request changed nothing');
  });

  it('a parameter given twice is refused, not one of its values picked', async () => {
    const res = await api.get<ErrorBody>('/v1/suppressions?limit=1&limit=2', { token });
    assert.deepEqual(assertValidationError(res), ['query.limit']);
  });

  it('the public logo, linked from sent mail, ignores its query (a footer’s cache-buster)', async () => {
    const res = await api.get<ErrorBody>(`/public/branding/${newId('usr')}/logo?v=2`);
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'LOGO_NOT_FOUND');
  });

  it('authentication still comes before the query check', async () => {
    const res = await api.get<ErrorBody>('/v1/domains?nope=1');
    assert.equal(res.status, 401);
  });

  const send = { from: 'a@edges.example.com', to: 'b@example.org', subject: 's', text: 't' };
  const failures: [string, () => Promise<JsonResponse<ErrorBody>>, string][] = [
    [
      'a bad body field',
      () => api.post('/v1/suppressions', { token, body: { email: 'nope', type: 'manual' } }),
      'email',
    ],
    ['a body as a whole', () => api.post('/v1/suppressions', { token, body: [] }), '(body)'],
    ['malformed JSON', () => api.post('/v1/suppressions', { token, body: '{"email":' }), '(body)'],
    [
      'JSON nested too deep',
      () => api.post('/v1/suppressions', { token, body: `${'['.repeat(40)}${']'.repeat(40)}` }),
      '(body)',
    ],
    ['a bad query value', () => api.get('/v1/stats/overview?days=0', { token }), 'query.days'],
    [
      'a bad Idempotency-Key',
      () => api.post('/v1/emails', { token, body: send, headers: { 'idempotency-key': 'two words' } }),
      'header.Idempotency-Key',
    ],
    [
      'an empty bounce report',
      () =>
        api.request('POST', '/internal/bounces', {
          headers: { 'x-internal-token': INTERNAL_TOKEN, 'content-type': 'message/rfc822' },
        }),
      '(body)',
    ],
    [
      'a refused webhook URL',
      () =>
        api.post('/v1/webhooks', { token, body: { url: 'https://127.0.0.1/hook', events: ['email.sent'] } }),
      'url',
    ],
  ];
  for (const [what, call, field] of failures) {
    it(`${what}: VALIDATION_ERROR with details.fields naming ${field}`, async () => {
      assert.deepEqual(assertValidationError(await call()), [field]);
    });
  }
});
