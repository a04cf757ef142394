// Issue 23 item 3: credential limits hold across nodes. Two limiters (two apps) on two
// connections to one database share AUTH_RATE_LIMIT_PER_15_MIN and the submission AUTH
// failure budget, as the nodes of a cluster on one PostgreSQL do.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseConfig } from '../../../src/config';
import type { Db } from '../../../src/db/connect';
import { startApiWriter } from '../../../src/http/api-writer';
import { createApp } from '../../../src/http/app';
import { CredentialAttempts } from '../../../src/modules/accounts/credential-attempts';
import { SessionSigner } from '../../../src/modules/accounts/sessions';
import { ApiClient } from '../../helpers/http-client';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';

const WINDOW = 15 * 60_000;

describe('credential attempts in the database', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(async () => {
    await t.close();
  });

  it('two limiters on two connections share one budget; refused attempts are not counted', async () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const a = new CredentialAttempts(t.db, 3, WINDOW, () => now);
    const b = new CredentialAttempts(t.open(), 3, WINDOW, () => now);
    const seen = [];
    for (const limiter of [a, b, a, b, a]) seen.push((await limiter.hit('credentials:10.0.0.1')).allowed);
    assert.deepEqual(seen, [true, true, true, false, false]);
    assert.equal((await b.hit('credentials:10.0.0.2')).allowed, true, 'another IP has its own budget');
    const refused = await a.hit('credentials:10.0.0.1');
    assert.equal(refused.retryAfterS, 15 * 60);
    // Half into the next window, the previous one's 3 weigh 1.5: one more attempt fits, not two.
    now += WINDOW + WINDOW / 2;
    assert.deepEqual(
      [(await b.hit('credentials:10.0.0.1')).allowed, (await a.hit('credentials:10.0.0.1')).allowed],
      [true, false],
    );
  });

  it('failures recorded by one MTA node block AUTH on another', async () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const a = new CredentialAttempts(t.db, 2, WINDOW, () => now);
    const b = new CredentialAttempts(t.open(), 2, WINDOW, () => now);
    await a.recordFailure('smtp-auth:10.0.0.9');
    assert.equal(await b.blocked('smtp-auth:10.0.0.9'), false);
    await b.recordFailure('smtp-auth:10.0.0.9');
    assert.equal(await a.blocked('smtp-auth:10.0.0.9'), true);
    assert.equal(await b.blocked('smtp-auth:10.0.0.9'), true);
    assert.equal(await a.blocked('smtp-auth:10.0.0.10'), false);
  });
});

/** One api node: its own app and connection, on the shared database. */
async function startNode(db: Db, dataDir: string): Promise<{ api: ApiClient; close: () => Promise<void> }> {
  const config = {
    ...parseConfig({ DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_15_MIN: '4' }),
    secretKey: 'k'.repeat(32),
  };
  const writer = startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) });
  const app = createApp({
    db,
    sendCommitter: writer,
    config,
    log: pino({ level: 'silent' }),
    sessions: new SessionSigner(config.secretKey, 60),
  });
  const server = http.createServer(app.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    api: new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    close: async () => {
      app.close();
      await writer.close();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('AUTH_RATE_LIMIT_PER_15_MIN across two api nodes', () => {
  let t: TestDb;
  let nodes: Awaited<ReturnType<typeof startNode>>[];
  before(async () => {
    t = await createTestDb();
    const dataDir = t.file.slice(0, t.file.lastIndexOf('/'));
    nodes = [await startNode(t.db, dataDir), await startNode(t.open(), dataDir)];
  });
  after(async () => {
    for (const n of nodes) await n.close();
    await t.close();
  });

  it('login attempts spread over both nodes get the limit in all, not per node', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const node = nodes[i % 2];
      assert.ok(node);
      const res = await node.api.post('/v1/auth/login', { body: { email: 'x@example.com', password: 'y' } });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
  });
});
