import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import Koa from 'koa';
import { errorMiddleware } from '../../../src/http/error-middleware';
import { rateLimited } from '../../../src/shared/app-error';
import { createLogger } from '../../../src/shared/logger';

// One way to render an error (issue 18): AppErrors, the unhandled 500 and the unknown path all
// come out in the spec's shape, and an unhandled error leaks neither its message nor its stack.
let server: http.Server;
let base: string;

before(async () => {
  const app = new Koa();
  app.use(errorMiddleware(createLogger({ level: 'silent', process: 'test' })));
  app.use((ctx) => {
    if (ctx.path === '/boom') throw new Error('secret detail at /srv/app.js:12');
    if (ctx.path === '/limited') throw rateLimited('slow down', { limit: 1 }, { 'Retry-After': '7' });
  });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('an unhandled error is a 500 INTERNAL_ERROR with nothing of the error in it', async () => {
  const res = await fetch(`${base}/boom`);
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), { error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
});

test('an AppError renders with its details and headers', async () => {
  const res = await fetch(`${base}/limited`);
  assert.equal(res.status, 429);
  assert.equal(res.headers.get('retry-after'), '7');
  assert.deepEqual(await res.json(), {
    error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down', details: { limit: 1 } },
  });
});

test('a path nothing answers is 404 NOT_FOUND', async () => {
  const res = await fetch(`${base}/nothing`);
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: { code: 'NOT_FOUND', message: 'No route for GET /nothing' } });
});
