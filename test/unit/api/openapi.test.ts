import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type Router from '@koa/router';
import pino from 'pino';
import { parseConfig } from '../../../src/config';
import type { Db } from '../../../src/db/connect';
import { startApiWriter } from '../../../src/api/api-writer';
import { createApp } from '../../../src/api/app';
import type { OpenApiDocument } from '../../../src/api/openapi';
import { buildOpenApiDocument } from '../../../src/api/openapi';
import { RouteGroup } from '../../../src/http/route';
import { mountGroup } from '../../../src/http/route-mount';
import { errorStatus } from '../../../src/shared/app-error';
import { requestAuthenticator } from '../../../src/modules/accounts/request-authenticator';
import { SessionSigner } from '../../../src/modules/accounts/sessions';
import { apiKeyCredentials } from '../../../src/modules/api-keys/api-key-credentials';
import { REPO_ROOT } from '../../helpers/appliance';
import { checkSchema } from '../../helpers/json-schema';
import { createTestDb } from '../../helpers/test-db';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** POST/PUT/PATCH routes that take no body. */
const BODILESS = new Set([
  'POST /v1/domains/{domainId}/verify',
  'POST /v1/domains/{domainId}/test-email',
  'POST /v1/emails/{id}/cancel',
  'POST /internal/accounts/{id}/reinstate',
  'POST /v1/auth/logout',
  'POST /v1/webhooks/{id}/enable',
  'POST /v1/webhooks/{id}/test',
  'POST /v1/webhooks/{id}/rotate-secret',
  'POST /v1/webhooks/{id}/attempts/{attemptId}/redeliver',
  // The Resend-compatible surface (issue 20): the SDK posts these without a body.
  'POST /emails/{id}/cancel',
  'POST /domains/{id}/verify',
  'POST /webhooks/{id}/signing-secret/rotate',
]);

/** `METHOD /path/{param}` for every route the app's routers register (HEAD comes with GET). */
function registeredRoutes(middleware: readonly unknown[]): Set<string> {
  const routes = new Set<string>();
  for (const fn of middleware) {
    const router = (fn as { router?: Router }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string')
        throw new Error(`a regexp route cannot be documented: ${layer.path}`);
      const template = layer.path.replace(/:(\w+)/g, '{$1}');
      for (const m of layer.methods) if (m !== 'HEAD') routes.add(`${m} ${template}`);
    }
  }
  return routes;
}

function documentedRoutes(doc: OpenApiDocument): Set<string> {
  const routes = new Set<string>();
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const m of Object.keys(item)) if (HTTP_METHODS.includes(m)) routes.add(`${m.toUpperCase()} ${p}`);
  }
  return routes;
}

type Op = {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string }>;
  security?: Record<string, unknown>[];
};

function operations(doc: OpenApiDocument): [string, string, Op][] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => HTTP_METHODS.includes(m))
      .map(([m, op]): [string, string, Op] => [m, p, op as Op]),
  );
}

describe('OpenAPI document', () => {
  let db: Db;
  let middleware: readonly unknown[];
  let close: () => void;
  let doc: OpenApiDocument;

  before(async () => {
    const testDb = await createTestDb();
    const dir = testDb.dataDir;
    const config = { ...parseConfig({ DATA_DIR: dir, DATABASE_URL: testDb.url }), secretKey: 'k'.repeat(32) };
    db = testDb.db;
    const api = createApp({
      db,
      // The writer thread starts with the first send; these tests send none.
      sendCommitter: startApiWriter(config, { onFatal: (err) => assert.fail(String(err)) }),
      config,
      log: pino({ level: 'silent' }),
      sessions: new SessionSigner(config.secretKey, 60),
    });
    middleware = api.app.middleware;
    doc = buildOpenApiDocument({ baseUrl: 'http://localhost:3000', operations: api.operations });
    close = () => api.close();
  });
  after(async () => {
    close();
    await db.destroy();
  });

  it('documents every registered route, and no route that is not registered', () => {
    const registered = registeredRoutes(middleware);
    const documented = documentedRoutes(doc);
    assert.ok(registered.size > 40, `found only ${registered.size} routes: is the router walk broken?`);
    assert.deepEqual(
      [...registered].filter((r) => !documented.has(r)),
      [],
      'routes missing from the document',
    );
    assert.deepEqual(
      [...documented].filter((r) => !registered.has(r)),
      [],
      'documented routes that do not exist',
    );
  });

  it('is structurally valid OpenAPI 3.1', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    const info = doc.info as { title?: unknown; version?: unknown };
    assert.equal(typeof info.title, 'string');
    assert.equal(typeof info.version, 'string');
    const schemes = (doc.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    const ids = new Set<string>();
    for (const [method, p, op] of operations(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      assert.ok(p.startsWith('/'), where);
      assert.ok(op.operationId && !ids.has(op.operationId), `${where}: operationId missing or repeated`);
      ids.add(op.operationId);
      const responses = Object.entries(op.responses ?? {});
      assert.ok(responses.length > 0, `${where}: no responses`);
      assert.ok(
        responses.some(([s]) => /^2\d\d$/.test(s)),
        `${where}: no success response`,
      );
      for (const [status, r] of responses) {
        assert.match(status, /^[1-5]\d\d$/, `${where}: bad status key`);
        assert.equal(typeof r.description, 'string', `${where} ${status}: description required`);
      }
      const templated = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathParams = (op.parameters ?? []).filter((x) => x.in === 'path');
      assert.deepEqual(
        pathParams.map((x) => x.name),
        templated,
        `${where}: path parameters must match the template`,
      );
      assert.ok(
        pathParams.every((x) => x.required === true),
        `${where}: path parameters are required`,
      );
      const keys = (op.parameters ?? []).map((x) => `${x.in}:${x.name}`);
      assert.equal(new Set(keys).size, keys.length, `${where}: duplicate parameter`);
      for (const x of op.parameters ?? []) assert.ok(['path', 'query', 'header', 'cookie'].includes(x.in));
      assert.ok(Array.isArray(op.security), `${where}: security must be explicit`);
      for (const req of op.security ?? []) {
        for (const name of Object.keys(req)) assert.ok(name in schemes, `${where}: unknown scheme ${name}`);
      }
      if (['post', 'put', 'patch'].includes(method) && !BODILESS.has(where)) {
        assert.ok(op.requestBody, `${where}: a write without a documented body`);
      }
    }
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    assert.ok(refs.length > 50);
    for (const ref of refs) {
      assert.ok(ref.startsWith('#/'), ref);
      let node: unknown = doc;
      for (const part of ref.slice(2).split('/'))
        node = (node as Record<string, unknown> | undefined)?.[part];
      assert.ok(node !== undefined, `unresolved ${ref}`);
    }
  });

  it('gives each error code the status the code base raises it with', () => {
    const declared = new Map<string, Set<number>>();
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts')) {
          const src = fs.readFileSync(file, 'utf8');
          for (const m of src.matchAll(/^(?:export )?const \w+ = defineError\(\s*'([A-Z_]+)',\s*(\d{3})/gm)) {
            const set = declared.get(m[1] ?? '') ?? new Set<number>();
            set.add(Number(m[2]));
            declared.set(m[1] ?? '', set);
          }
        }
      }
    };
    walk(path.join(REPO_ROOT, 'src'));
    assert.ok(declared.size > 30);
    for (const [code, statuses] of declared) {
      assert.deepEqual([...statuses], [errorStatus(code)], `${code}: declared ${[...statuses].join(', ')}`);
    }
  });

  it('refuses to mount a route registered without a declaration', () => {
    const config = { ...parseConfig({ DATA_DIR: os.tmpdir() }), secretKey: 'k'.repeat(32) };
    const deps = {
      config,
      authenticator: requestAuthenticator({
        db,
        sessions: new SessionSigner('k'.repeat(32), 60),
        baseUrl: config.baseUrl,
        apiKeys: apiKeyCredentials(db),
      }),
    };
    const group = new RouteGroup(deps, '/v1/things', 'Things');
    group.define(
      {
        method: 'get',
        path: '/',
        auth: 'either',
        operationId: 'listThings',
        summary: 'Things',
        ok: { status: 200, description: 'Things' },
      },
      (ctx) => {
        ctx.body = [];
      },
    );
    assert.doesNotThrow(() => mountGroup(group));
    // What the old routers did: a guard or a route added to the router behind define's back.
    group.router.get('/:id', (ctx) => {
      ctx.body = {};
    });
    assert.throws(() => mountGroup(group), /without a declaration/);
  });

  it('takes request bodies from the zod schemas the routes validate with', () => {
    const register = doc.paths['/v1/auth/register']?.post as {
      requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
    };
    const schema = register.requestBody.content['application/json']?.schema ?? {};
    assert.deepEqual(schema.required, ['email', 'password', 'name']);
    assert.equal(schema.additionalProperties, false);
    assert.equal((schema.properties as Record<string, { minLength?: number }>).password?.minLength, 10);
  });

  it('checks responses strictly: a missing or an undeclared field is a problem', () => {
    const shape = { $ref: '#/components/schemas/DeletedDomain' };
    assert.deepEqual(checkSchema(doc, shape, { id: 'dom_1', domain: 'a.test', deleted: true }), []);
    assert.deepEqual(checkSchema(doc, shape, { id: 'dom_1', deleted: true }), ['$: missing required domain']);
    assert.deepEqual(checkSchema(doc, shape, { id: 'dom_1', domain: 'a.test', deleted: true, x: 1 }), [
      '$: undeclared property x',
    ]);
  });
});
