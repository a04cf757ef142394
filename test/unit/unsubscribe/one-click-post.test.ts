// The one-click POST route in process (real SQLite by migrations, the real Koa app): the token's
// HMAC is checked before the body is read, and only the RFC 8058 form field unsubscribes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseConfig } from '../../../src/config';
import type { Db } from '../../../src/db/connect';
import { migrate, openDb } from '../../../src/db/connect';
import { startApiWriter } from '../../../src/http/api-writer';
import { createApp } from '../../../src/http/app';
import { SessionSigner } from '../../../src/modules/accounts/sessions';
import { unsubscribeKey, unsubscribeToken } from '../../../src/modules/unsubscribe/unsubscribe-token';
import { insertEmail } from '../../helpers/email-fixtures';
import { ApiClient } from '../../helpers/http-client';

describe('POST /public/unsubscribe/:token', () => {
  let dir: string;
  let db: Db;
  let server: http.Server;
  let close: () => Promise<void>;
  let base: string;
  let token: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-one-click-'));
    const config = { ...parseConfig({ DATA_DIR: dir }), secretKey: 'k'.repeat(32) };
    db = openDb({ file: path.join(dir, 'mail.db') });
    await migrate(db);
    const writer = startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) });
    const app = createApp({
      db,
      sendCommitter: writer,
      config,
      log: pino({ level: 'silent' }),
      sessions: new SessionSigner(config.secretKey, 60),
    });
    server = http.createServer(app.app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      app.close();
      await writer.close();
      await new Promise((r) => server.close(r));
    };
    const api = new ApiClient(base);
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
    token = unsubscribeToken(unsubscribeKey(config.secretKey), {
      userId,
      emailId,
      recipientId: recipient.id,
    });
  });
  after(async () => {
    await close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
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
