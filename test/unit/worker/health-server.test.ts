import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HealthServer } from '../../../src/worker/health-server';
import { startHealthServer } from '../../../src/worker/health-server';

void describe('worker health server', () => {
  let server: HealthServer;
  let base: string;
  before(async () => {
    server = await startHealthServer({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server.close();
  });

  void it('answers GET /health with 200 {"status":"ok"}', async () => {
    const res = await fetch(`${base}/health?probe=1`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  void it('answers anything else with a 404 in the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/healthz'],
      ['POST', '/health'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'NOT_FOUND');
      assert.equal(typeof body.error.message, 'string');
    }
  });

  void it('closes even while a keep-alive connection is open', async () => {
    const other = await startHealthServer({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`http://127.0.0.1:${other.port}/health`, {
      headers: { connection: 'keep-alive' },
    });
    await res.text();
    const began = Date.now();
    await other.close();
    assert.ok(Date.now() - began < 1_000);
  });
});
