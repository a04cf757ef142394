import { createHash } from 'node:crypto';
import { z } from 'zod';
import { resendNamesOf } from '../compat/resend-errors';
import { ResendError } from '../compat/resend.responses';
import { errorStatus } from '../shared/app-error';
import type { ApiDeps } from '../http/context';
import { ErrorBody } from '../http/error-body.schema';
import type { Auth, Operation } from '../http/route';
import { RouteGroup } from '../http/route';

const ACCESS_ERRORS: Readonly<Record<Auth, readonly string[]>> = {
  none: [],
  either: ['UNAUTHORIZED', 'INVALID_API_KEY', 'ACCOUNT_SUSPENDED'],
  session: ['UNAUTHORIZED', 'INVALID_API_KEY', 'FORBIDDEN', 'ACCOUNT_SUSPENDED'],
  operator: ['UNAUTHORIZED', 'INVALID_API_KEY', 'FORBIDDEN', 'ACCOUNT_SUSPENDED'],
  internal: ['UNAUTHORIZED'],
};

const SECURITY: Readonly<Record<Auth, readonly Record<string, string[]>[]>> = {
  none: [],
  either: [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  // OpenAPI 3.1: for schemes other than OAuth the list names the roles required.
  operator: [{ session: ['operator'] }],
  internal: [{ internalToken: [] }],
};

const PARAM_DOC: Readonly<Record<string, string>> = {
  id: 'The resource id (operator routes: an account id or its email address)',
  domainId: 'Domain id (`dom_…`)',
  keyId: 'API key id (`key_…`)',
  idOrEmail: 'The suppression id (`sup_…`) or the suppressed address (URL-encoded)',
  attachmentId: 'Attachment id, as listed in the message’s `attachments`',
  ownerId: 'Account id (`usr_…`)',
};

type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The `components.schemas` name of a response schema: the id its `.meta({ id })` gave it. */
function schemaId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (id === undefined) throw new Error('openapi: a response schema has no .meta({ id })');
  return id;
}

/** The bounds zod gives every `.int()`: noise in a document. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Every schema declared with an id (the response views and their parts), as
 * `components.schemas`, each nested one by `$ref`. The regex zod attaches to its date formats
 * and the safe-integer bounds it attaches to `.int()` are left out: `format` says it.
 */
function responseComponents(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time' || jsonSchema.format === 'date') delete jsonSchema.pattern;
      if (SAFE_INTEGER_BOUNDS.has(jsonSchema.minimum as number)) delete jsonSchema.minimum;
      if (SAFE_INTEGER_BOUNDS.has(jsonSchema.maximum as number)) delete jsonSchema.maximum;
    },
  });
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

/** What the route validates with, as JSON Schema 2020-12: the input side (before transforms). */
function fromZod(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  delete json.$schema;
  return json;
}

function errorCodes(op: Operation): string[] {
  const codes = new Set<string>([...ACCESS_ERRORS[op.auth], ...(op.errors ?? [])]);
  if (op.auth === 'either' && !op.sendingKey) codes.add('RESTRICTED_API_KEY');
  // A test-mode key on a state change outside the sandbox (route.ts, liveKeyOnly).
  if (op.auth === 'either' && op.method !== 'get' && !op.sendingKey && !op.testKey) codes.add('FORBIDDEN');
  // A session cookie changing state must carry the CSRF token (authenticate.ts, issue 19).
  if (op.auth !== 'none' && op.auth !== 'internal' && op.method !== 'get') codes.add('CSRF_FAILED');
  // Every route refuses query parameters it does not declare (route.ts, NO_QUERY).
  if (op.body || !op.anyQuery) codes.add('VALIDATION_ERROR');
  if (op.ids) codes.add('NOT_FOUND');
  // JSON bodies are capped at 1 MiB; the send route answers EMAIL_TOO_LARGE instead.
  if (op.body && !codes.has('EMAIL_TOO_LARGE')) codes.add('PAYLOAD_TOO_LARGE');
  // A body sent without Content-Type: application/json (body.ts, requireJsonContentType).
  if (op.body) codes.add('UNSUPPORTED_MEDIA_TYPE');
  codes.add('RATE_LIMIT_EXCEEDED');
  codes.add('INTERNAL_ERROR');
  return [...codes];
}

function errorResponses(op: Operation): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodes(op)) {
    const status = errorStatus(code);
    if (status === undefined)
      throw new Error(`openapi: ${op.operationId} names ${code}, which no defineError declares`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema =
      op.errorShape === 'resend'
        ? {
            allOf: [
              ref(schemaId(ResendError)),
              { properties: { name: { enum: [...new Set(codes.flatMap(resendNamesOf))] } } },
            ],
          }
        : {
            allOf: [
              ref(schemaId(ErrorBody)),
              { properties: { error: { properties: { code: { enum: codes } } } } },
            ],
          };
    out[String(status)] = {
      description: codes.join(', '),
      content: { 'application/json': { schema } },
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
        : {}),
    };
  }
  return out;
}

function parameters(op: Operation): unknown[] {
  const params: unknown[] = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: PARAM_DOC[name] ?? name,
    schema: { type: 'string' },
  }));
  if (op.query) {
    const json = fromZod(op.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      params.push({ name, in: 'query', required: json.required?.includes(name) ?? false, schema });
    }
  }
  for (const [name, description] of Object.entries(op.requestHeaders ?? {})) {
    params.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
  return params;
}

function successResponse(op: Operation): unknown {
  const { ok } = op;
  const contentType = ok.contentType ?? 'application/json';
  const headers = Object.fromEntries(
    Object.entries(op.responseHeaders ?? {}).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  );
  return {
    description: ok.description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { [contentType]: { schema: ok.schema ? ref(schemaId(ok.schema)) : { type: 'string' } } },
  };
}

function operation(op: Operation): unknown {
  const params = parameters(op);
  const other = Object.fromEntries(
    Object.entries(op.otherResponses ?? {}).map(([status, r]) => [
      status,
      {
        description: r.description,
        ...(r.schema ? { content: { 'application/json': { schema: ref(schemaId(r.schema)) } } } : {}),
      },
    ]),
  );
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    security: SECURITY[op.auth],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: fromZod(op.body) } } } }
      : {}),
    ...(op.rawBody
      ? {
          requestBody: {
            required: true,
            description: op.rawBody.description,
            content: {
              [op.rawBody.contentType]: {
                schema: { type: 'string', contentMediaType: op.rawBody.contentType },
              },
            },
          },
        }
      : {}),
    responses: { [String(op.ok.status)]: successResponse(op), ...other, ...errorResponses(op) },
  };
}

const OpenApiDocumentView = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ id: 'OpenApiDocument' });

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: Record<string, unknown>;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/**
 * The API's OpenAPI 3.1 document, built from the routes' own declarations (route.ts):
 * one operation per registered route, request schemas generated from the zod schemas
 * the routes validate with, error statuses as `defineError` declared them, response
 * schemas from the zod schemas declared beside the views.
 */
export function buildOpenApiDocument(options: {
  readonly baseUrl: string;
  readonly operations: readonly Operation[];
}): OpenApiDocument {
  const { operations } = options;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} declared twice`);
    item[op.method] = operation(op);
  }
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Mailroom API',
      version: 'v1',
      description:
        'Self-hosted transactional mail: send from verified domains, track delivery, receive mail, signed webhooks. ' +
        'Every failure is `{"error": {"code", "message", "details"?}}`; switch on `code`. Conventions: docs/api.md.',
    },
    servers: [{ url: options.baseUrl }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: responseComponents(),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 're_live_…',
          description: 'An API key (`re_live_…`), created with a session at POST /v1/api-keys.',
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A session token from POST /v1/auth/register or /v1/auth/login. The dashboard sends it as the HttpOnly `mr_session` cookie instead (`__Host-mr_session` when BASE_URL is https); a cookie-authenticated request that changes state must carry `X-CSRF-Token` equal to the `mr_csrf` cookie (`__Host-mr_csrf` under https; else 403 CSRF_FAILED).',
        },
        internalToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Internal-Token',
          description:
            'The operator token (INTERNAL_API_TOKEN); with none configured these routes answer 401.',
        },
      },
    },
  };
}

export interface OpenApiRoutes {
  readonly routes: RouteGroup;
  /** Builds the document once every other route is declared; before that the route answers 500. */
  publish(operations: readonly Operation[]): void;
}

/** `GET /openapi.json`: no token; the same bytes for the life of the process, so cacheable with an ETag. */
export function openApiRoutes(deps: Pick<ApiDeps, 'config' | 'authenticator'>): OpenApiRoutes {
  const routes = new RouteGroup(deps, '/openapi.json', 'Operations');
  let served: { readonly body: string; readonly etag: string } | undefined;
  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'none',
      operationId: 'openapi',
      summary: 'This document',
      ok: { status: 200, schema: OpenApiDocumentView, description: 'The OpenAPI 3.1 document' },
    },
    (ctx) => {
      if (!served) throw new Error('the OpenAPI document was not published');
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.set('ETag', served.etag);
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'application/json';
      ctx.body = served.body;
    },
  );
  return {
    routes,
    publish(operations) {
      const body = JSON.stringify(buildOpenApiDocument({ baseUrl: deps.config.baseUrl, operations }));
      served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    },
  };
}
