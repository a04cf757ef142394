// The one-click POST route in process (real database by migrations, either backend; the real Koa app): the token's
// HMAC is checked before the body is read, and only the RFC 8058 form field unsubscribes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { unsubscribeKey, unsubscribeToken } from '../../../src/modules/unsubscribe/unsubscribe-token';
import { insertEmail } from '../../helpers/email-fixtures';
import type { ApiNode } from '../../helpers/backend-api';
import { startApiNode } from '../../helpers/backend-api';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

describe('POST /public/unsubscribe/:token', () => {
  let testDb: TestDb;
  let db: Db;
  let node: ApiNode;
  let base: string;
  let token: string;

  before(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    node = await startApiNode(db, testDb);
    base = node.api.baseUrl;
    const api = node.api;
    const reg = await api.post<{ token: string; user: { id: string } }>('/v1/auth/register', {
      body: { email: 'oneclick@example.com', password: 'a long password', name: 'One Click' },
    });
    const domain = await api.post<{ id: string }>('/v1/domains', {
      token: reg.body.token,
      body: { domain: 'news.example.com' },
    });
    assert.equal(domain.status, 201, domain.text);
    const userId = reg.body.user.id;
    const emailId = await insertEmail(
      db,
      { userId, domainId: domain.body.id, domain: 'news.example.com' },
      { status: 'delivered', to: ['reader@example.org'] },
    );
    const recipient = await db
      .selectFrom('email_recipients')
      .select('id')
      .where('email_id', '=', emailId)
      .executeTakeFirstOrThrow();
    token = unsubscribeToken(unsubscribeKey(node.config.secretKey), {
      userId,
      emailId,
      recipientId: recipient.id,
    });
  });
  after(async () => {
    await node.close();
    await testDb.close();
  });

  const post = (t: string, body: string | FormData, headers: Record<string, string> = {}) =>
    fetch(`${base}/public/unsubscribe/${t}`, { method: 'POST', body, headers });

  it('refuses a token that is not ours before reading the body', async () => {
    const forged = `${token.slice(0, -4)}aaaa`;
    // A body past the 4 KiB bound: read first, it was a 413; the token decides first, a 404.
    const res = await post(forged, `List-Unsubscribe=One-Click&pad=${'x'.repeat(8_000)}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'UNSUBSCRIBE_LINK_NOT_FOUND');
    const none = await db.selectFrom('suppressions').select('email').execute();
    assert.deepEqual(none, []);
  });

  it('unsubscribes on the form field only', async () => {
    const wrong = new FormData();
    wrong.append('List-Unsubscribe', 'No');
    wrong.append('comment', 'One-Click');
    const refused = await post(token, wrong);
    assert.equal(refused.status, 422, await refused.text());
    assert.deepEqual(await db.selectFrom('suppressions').select('email').execute(), []);

    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const done = await post(token, form);
    assert.equal(done.status, 200, await done.text());
    const rows = await db.selectFrom('suppressions').select(['email', 'type']).execute();
    assert.deepEqual(rows, [{ email: 'reader@example.org', type: 'unsubscribe' }]);
  });
});
