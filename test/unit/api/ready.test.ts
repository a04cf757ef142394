import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseConfig } from '../../../src/config';
import { startApiWriter } from '../../../src/api/api-writer';
import { createApp } from '../../../src/api/app';
import { SessionSigner } from '../../../src/modules/accounts/sessions';
import { freePort } from '../../helpers/free-port';
import { openTestDatabase } from '../../helpers/open-database';
import type { TestDb } from '../../helpers/test-db';
import { createTestDb } from '../../helpers/test-db';
import { enqueue } from '../../../src/jobs/enqueue';
import { STARVED_AFTER_MS } from '../../../src/jobs/queue-stats';

async function serveApp(
  closeDbFirst: boolean,
  seed?: (db: TestDb['db']) => Promise<unknown>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const testDb = await createTestDb();
  await seed?.(testDb.db);
  const dir = testDb.dataDir;
  // A port nobody listens on: the MTA probe fails fast with ECONNREFUSED.
  const config = {
    ...parseConfig({
      DATA_DIR: dir,
      DATABASE_URL: testDb.url,
      SMTP_PORT: String(await freePort()),
      BIND_ADDRESS: '127.0.0.1',
    }),
    secretKey: 'k'.repeat(32),
  };
  let db = testDb.db;
  if (closeDbFirst) {
    await db.destroy();
    // A closed SQLite handle fails every query; a destroyed PostgreSQL pool would quietly
    // open a new one, so there the database is a server nobody listens on.
    if (testDb.backend === 'postgres')
      db = openTestDatabase(`postgres://postgres@127.0.0.1:${await freePort()}/none`);
  }
  const api = createApp({
    db,
    // The writer thread starts with the first send; these tests send none.
    sendCommitter: startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) }),
    config,
    log: pino({ level: 'silent' }),
    sessions: new SessionSigner(config.secretKey, 60),
  });
  const server = http.createServer(api.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      api.close();
      await new Promise((r) => server.close(r));
      if (!closeDbFirst || testDb.backend === 'postgres') await db.destroy();
    },
  };
}

describe('/ready', () => {
  it('is degraded (200) when only the MTA is down', async () => {
    const s = await serveApp(false);
    const res = await fetch(`${s.url}/ready`);
    const body = (await res.json()) as {
      status: string;
      checks: Record<string, { ok: boolean; error?: string }>;
    };
    assert.equal(res.status, 200);
    assert.equal(body.status, 'degraded');
    assert.equal(body.checks.database?.ok, true);
    assert.equal(body.checks.queue?.ok, true);
    assert.equal(body.checks.redis?.ok, true);
    assert.equal(body.checks.mail?.ok, false);
    assert.ok(body.checks.mail?.error);
    await s.stop();
  });

  it('is 503 when the database is unreachable; /health stays 200', async () => {
    const s = await serveApp(true);
    const res = await fetch(`${s.url}/ready`);
    const body = (await res.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    assert.equal(res.status, 503);
    assert.equal(body.status, 'unavailable');
    assert.equal(body.checks.database?.ok, false);
    assert.equal((await fetch(`${s.url}/health`)).status, 200);
    await s.stop();
  });

  it('names a starved queue and says degraded; a queue whose due jobs are recent is only busy', async () => {
    const now = Date.now();
    const s = await serveApp(false, async (db) => {
      await enqueue(db, {
        queue: 'email-send',
        payload: {},
        runAt: new Date(now - STARVED_AFTER_MS - 30_000),
      });
      await enqueue(db, { queue: 'webhook-delivery', payload: {}, runAt: new Date(now - 10_000) });
    });
    try {
      const res = await fetch(`${s.url}/ready`);
      const body = (await res.json()) as {
        status: string;
        checks: Record<string, { ok: boolean; error?: string }>;
        queues: Record<string, { oldestRunnableSeconds: number; running: number; starved: boolean }>;
      };
      assert.equal(res.status, 200);
      assert.equal(body.status, 'degraded');
      assert.equal(body.checks.queues?.ok, false);
      assert.match(body.checks.queues?.error ?? '', /email-send \(1[5-9]\d s\)/);
      assert.doesNotMatch(body.checks.queues?.error ?? '', /webhook-delivery/);
      assert.equal(body.queues['email-send']?.starved, true);
      assert.ok((body.queues['email-send']?.oldestRunnableSeconds ?? 0) >= 150);
      assert.equal(body.queues['webhook-delivery']?.starved, false);
      assert.ok((body.queues['webhook-delivery']?.oldestRunnableSeconds ?? 0) >= 10);
    } finally {
      await s.stop();
    }
  });

  it('reports every queue not starved on an idle box', async () => {
    const s = await serveApp(false);
    try {
      const body = (await (await fetch(`${s.url}/ready`)).json()) as {
        checks: Record<string, { ok: boolean }>;
        queues: Record<string, { starved: boolean }>;
      };
      assert.equal(body.checks.queues?.ok, true);
      assert.ok(Object.keys(body.queues).includes('email-send'));
      assert.ok(Object.values(body.queues).every((q) => !q.starved));
    } finally {
      await s.stop();
    }
  });
});
