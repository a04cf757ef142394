// Issue 17 finding 1: a case variant of an operator path (`/INTERNAL/ACCOUNTS/…/suspend`)
// skipped the X-Internal-Token guard and answered 200, because a prefix `router.use()` guard
// matched case-sensitively while routes matched case-insensitively. This walks the real
// app's route table and sends every protected route, unauthenticated, in the path variants
// a router or a proxy might treat differently; each must answer 401 or 404. A GET is sent a second
// time as a browser's page load (Accept: text/html): before issue 30 that request was told apart by
// its headers and left to the dashboard, which shared the Resend surface's paths.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type Router from '@koa/router';
import pino from 'pino';
import { parseConfig } from '../../src/config';
import type { Db } from '../../src/db/connect';
import { startApiWriter } from '../../src/api/api-writer';
import { createApp } from '../../src/api/app';
import { SessionSigner } from '../../src/modules/accounts/sessions';
import { createTestDb } from '../helpers/test-db';

interface Served {
  readonly db: Db;
  readonly port: number;
  /** The app's middleware: the mounted routers carry `.router`, as the OpenAPI unit test reads them. */
  readonly middleware: readonly unknown[];
  stop(): Promise<void>;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const testDb = await createTestDb();
  const dir = testDb.dataDir;
  const config = {
    // Hundreds of requests from one address: the per-IP limits are not what is tested here.
    ...parseConfig({
      DATA_DIR: dir,
      DATABASE_URL: testDb.url,
      HTTP_RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_15_MIN: '1000000',
      ...env,
    }),
    secretKey: 'k'.repeat(32),
  };
  const db = testDb.db;
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
  return {
    db,
    port: (server.address() as AddressInfo).port,
    middleware: api.app.middleware,
    stop: async () => {
      api.close();
      await new Promise((r) => server.close(r));
      await db.destroy();
    },
  };
}

/** node:http sends the path byte for byte (fetch would resolve `..` and `//` before sending). */
function send(
  port: number,
  method: string,
  rawPath: string,
  body: unknown,
  accept?: string,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = payload === undefined ? {} : { 'content-type': 'application/json' };
  if (accept !== undefined) headers.accept = accept;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: rawPath,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** As `send`, with a session token. */
async function sendAs(
  port: number,
  method: string,
  rawPath: string,
  body: unknown,
  token: string,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${rawPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

interface RouteEntry {
  readonly method: string;
  /** OpenAPI template: `/internal/accounts/{id}/suspend`. */
  readonly template: string;
}

/** Every route the app registered, from the routers it mounted (HEAD comes with GET). */
function routeTable(middleware: readonly unknown[]): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const fn of middleware) {
    const router = (fn as { router?: Router }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      assert.equal(typeof layer.path, 'string');
      const template = String(layer.path).replace(/:(\w+)/g, '{$1}');
      for (const method of layer.methods) if (method !== 'HEAD') out.push({ method, template });
    }
  }
  return out;
}

/** Alternating case of the letters: `/InTeRnAl/AcCoUnTs`. */
function mixedCase(p: string): string {
  let i = 0;
  return p.replace(/[a-z]/gi, (c) => (i++ % 2 === 0 ? c.toUpperCase() : c.toLowerCase()));
}

/** The path variants a router, a proxy or a client may each read differently. */
function variants(p: string): string[] {
  const [, first = '', ...rest] = p.split('/');
  const tail = rest.length > 0 ? `/${rest.join('/')}` : '';
  const out = [
    p.toUpperCase(),
    mixedCase(p),
    `/${first.toUpperCase()}${tail}`,
    `/${first[0]?.toUpperCase() ?? ''}${first.slice(1)}${tail}`,
    `/${first}${tail.toUpperCase()}`,
    `/${p}`,
    `/${first}/${tail}`,
    p.replace(/\/([^/]*)$/, '//$1'),
    `${p}/`,
    `${p.toUpperCase()}/`,
    `${p}//`,
    `/${first}%2F${tail.slice(1)}`,
    `/${first}%2f${tail.slice(1)}`,
    p.replace(/\/([^/]*)$/, '%2F$1'),
    `/${first}/x/..${tail}`,
    `/${first}/./${tail.slice(1)}`,
    `/x/../${p.slice(1)}`,
    `/${first}/%2e%2e/${first}${tail}`,
    `/${first.toUpperCase()}/x/..${tail}`,
  ];
  // Every variant is a path (a request line needs the leading slash).
  return [...new Set(out)].filter((v) => v !== p && v.startsWith('/'));
}

const BODIES: Readonly<Record<string, unknown>> = {
  'POST /internal/accounts/{id}/suspend': { reason: 'route-auth test' },
  'PATCH /internal/accounts/{id}/limits': { emailsPerHour: 1_000_000, emailsPerDay: 1_000_000 },
  // Valid, so the send route (which validates before it authenticates) reaches its auth step.
  'POST /v1/emails': { from: 'a@a.example', to: 'b@b.example', subject: 's', text: 't' },
  'POST /v1/operator/accounts/{id}/suspend': { reason: 'route-auth test' },
  'PUT /v1/operator/accounts/{id}/limits': { emailsPerHour: 1_000_000, emailsPerDay: 1_000_000 },
  'POST /v1/emails/batch': [{ from: 'a@a.example', to: 'b@b.example', subject: 's', text: 't' }],
  'POST /emails': { from: 'a@a.example', to: 'b@b.example', subject: 's', text: 't' },
  'POST /emails/batch': [{ from: 'a@a.example', to: 'b@b.example', subject: 's', text: 't' }],
};

/** Where a route has a non-`none` security in the app's own /openapi.json. */
async function protectedRoutes(s: Served): Promise<RouteEntry[]> {
  const res = await send(s.port, 'GET', '/openapi.json', undefined);
  assert.equal(res.status, 200);
  const doc = JSON.parse(res.text) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  const table = routeTable(s.middleware);
  assert.ok(table.length > 40, `found only ${table.length} routes: is the route walk broken?`);
  return table.filter(({ method, template }) => {
    const op = doc.paths[template]?.[method.toLowerCase()];
    assert.ok(op?.security, `${method} ${template}: registered but not documented with its auth`);
    return op.security.length > 0;
  });
}

async function walk(s: Served, account: string): Promise<{ tried: number; wrong: string[] }> {
  const routes = await protectedRoutes(s);
  assert.ok(routes.some((r) => r.template.startsWith('/internal/accounts/')));
  const wrong: string[] = [];
  let tried = 0;
  for (const { method, template } of routes) {
    const key = `${method} ${template}`;
    const concrete = template.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'id' ? encodeURIComponent(account) : `${name}_x`,
    );
    const body = BODIES[key] ?? (['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined);
    for (const p of [concrete, ...variants(concrete)]) {
      for (const accept of method === 'GET' ? [undefined, 'text/html'] : [undefined]) {
        const res = await send(s.port, method, p, body, accept);
        tried++;
        if (res.status !== 401 && res.status !== 404)
          wrong.push(
            `${method} ${p} (Accept ${accept ?? 'none'}) -> ${res.status} ${res.text.slice(0, 120)}`,
          );
      }
    }
  }
  return { tried, wrong };
}

async function operatorTraces(db: Db): Promise<unknown[]> {
  return db.selectFrom('audit_log').selectAll().where('actor_type', '=', 'operator').execute();
}

describe('security: every protected route refuses unauthenticated path variants', () => {
  for (const [label, env] of [
    ['INTERNAL_API_TOKEN unset', {}],
    ['INTERNAL_API_TOKEN set', { INTERNAL_API_TOKEN: 't'.repeat(40) }],
  ] as const) {
    describe(label, () => {
      let s: Served;
      const email = 'victim@example.com';

      before(async () => {
        s = await serve(env);
        const reg = await send(s.port, 'POST', '/v1/auth/register', {
          email,
          password: 'a long password',
          name: 'Victim',
        });
        assert.equal(reg.status, 201, reg.text);
      });
      after(async () => {
        await s.stop();
      });

      it('answers 403 to an ordinary account’s session on every operator route (issue 19)', async () => {
        const login = await send(s.port, 'POST', '/v1/auth/login', { email, password: 'a long password' });
        const token = (JSON.parse(login.text) as { token: string }).token;
        const victim = await s.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirst();
        const res = await send(s.port, 'GET', '/openapi.json', undefined);
        const doc = JSON.parse(res.text) as {
          paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
        };
        const operatorRoutes = Object.entries(doc.paths).flatMap(([template, ops]) =>
          Object.entries(ops)
            .filter(([, op]) => op.security?.some((s) => s.session?.includes('operator')))
            .map(([method]) => ({ method: method.toUpperCase(), template })),
        );
        assert.ok(operatorRoutes.length >= 5, `found ${operatorRoutes.length} operator routes`);
        for (const { method, template } of operatorRoutes) {
          const concrete = template.replace('{id}', victim?.id ?? '');
          const body = BODIES[`${method} ${template}`] ?? (method === 'GET' ? undefined : {});
          const answer = await sendAs(s.port, method, concrete, body, token);
          assert.equal(answer.status, 403, `${method} ${concrete}: ${answer.text}`);
        }
        assert.deepEqual(await operatorTraces(s.db), []);
      });

      it('answers 401 or 404 to every variant, and nothing is done as the operator', async () => {
        const { tried, wrong } = await walk(s, email);
        assert.ok(tried > 500, `only ${tried} requests`);
        assert.deepEqual(wrong, []);
        assert.deepEqual(await operatorTraces(s.db), []);
        const user = await s.db
          .selectFrom('users')
          .select('status')
          .where('email', '=', email)
          .executeTakeFirst();
        assert.equal(user?.status, 'ACTIVE');
      });
    });
  }
});
