import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from './context';
import type { Access, Operation } from './openapi-operations';
import { OPERATIONS } from './openapi-operations';
import type { JsonSchema } from './openapi-schemas';
import { ref, RESPONSE_SCHEMAS } from './openapi-schemas';

/** HTTP status of every error code a route documents (spec: Errors, and docs/api.md for ours). */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  UNAUTHORIZED: 401,
  INVALID_API_KEY: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  ACCOUNT_SUSPENDED: 403,
  DOMAIN_NOT_VERIFIED: 403,
  SUPPRESSED_RECIPIENT: 403,
  ACCOUNT_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  ATTACHMENT_NOT_FOUND: 404,
  DOMAIN_NOT_FOUND: 404,
  EMAIL_NOT_FOUND: 404,
  LOGO_NOT_FOUND: 404,
  SUPPRESSION_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  DOMAIN_ALREADY_EXISTS: 409,
  DOMAIN_HAS_HISTORY: 409,
  DOMAIN_VERIFIED_ELSEWHERE: 409,
  EMAIL_ALREADY_REGISTERED: 409,
  EMAIL_NOT_CANCELLABLE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  SUPPRESSION_ALREADY_EXISTS: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  EMAIL_TOO_LARGE: 413,
  LOGO_TOO_LARGE: 413,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_DOMAIN: 422,
  INVALID_FROM_ADDRESS: 422,
  INVALID_LOGO: 422,
  INVALID_RECIPIENT: 422,
  TOO_MANY_RECIPIENTS: 422,
  VALIDATION_ERROR: 422,
  RATE_LIMIT_EXCEEDED: 429,
  SENDING_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  EMAIL_QUEUE_FAILED: 503,
};

const ACCESS_ERRORS: Readonly<Record<Access, readonly string[]>> = {
  none: [],
  either: ['UNAUTHORIZED', 'INVALID_API_KEY', 'ACCOUNT_SUSPENDED'],
  session: ['UNAUTHORIZED', 'INVALID_API_KEY', 'FORBIDDEN', 'ACCOUNT_SUSPENDED'],
  internal: ['UNAUTHORIZED'],
};

const SECURITY: Readonly<Record<Access, readonly Record<string, string[]>[]>> = {
  none: [],
  either: [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  internal: [{ internalToken: [] }],
};

const PARAM_DOC: Readonly<Record<string, string>> = {
  id: 'The resource id (operator routes: an account id or its email address)',
  domainId: 'Domain id (`dom_…`)',
  keyId: 'API key id (`key_…`)',
  attachmentId: 'Attachment id, as listed in the message’s `attachments`',
  ownerId: 'Account id (`usr_…`)',
};

/** What the route validates with, as JSON Schema 2020-12: the input side (before transforms). */
function fromZod(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  delete json.$schema;
  return json;
}

function errorCodes(op: Operation): string[] {
  const codes = new Set<string>([...ACCESS_ERRORS[op.access], ...op.errors]);
  if (op.body || op.query) codes.add('VALIDATION_ERROR');
  // JSON bodies are capped at 1 MiB; the send route answers EMAIL_TOO_LARGE instead.
  if (op.body && !codes.has('EMAIL_TOO_LARGE')) codes.add('PAYLOAD_TOO_LARGE');
  codes.add('RATE_LIMIT_EXCEEDED');
  codes.add('INTERNAL_ERROR');
  return [...codes];
}

function errorResponses(op: Operation): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodes(op)) {
    const status = ERROR_STATUS[code];
    if (status === undefined) throw new Error(`openapi: ${op.operationId} names unknown error code ${code}`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema = {
      allOf: [ref('Error'), { properties: { error: { properties: { code: { enum: codes } } } } }],
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
    content: { [contentType]: { schema: ok.schema ? ref(ok.schema) : { type: 'string' } } },
  };
}

function operation(op: Operation): unknown {
  const params = parameters(op);
  const other = Object.fromEntries(
    Object.entries(op.otherResponses ?? {}).map(([status, r]) => [
      status,
      {
        description: r.description,
        ...(r.schema ? { content: { 'application/json': { schema: ref(r.schema) } } } : {}),
      },
    ]),
  );
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    security: SECURITY[op.access],
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

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: Record<string, unknown>;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/**
 * The API's OpenAPI 3.1 document: one operation per registered route (a test
 * holds the two sets equal), request schemas generated from the zod schemas the
 * routes validate with, response schemas from openapi-schemas.ts.
 */
export function buildOpenApiDocument(options: { readonly baseUrl: string }): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operation(op);
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
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: RESPONSE_SCHEMAS,
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
          description: 'A session token from POST /v1/auth/register or /v1/auth/login.',
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

/** `GET /openapi.json`: no token; the same bytes for the life of the process, so cacheable with an ETag. */
export function openApiRoutes(options: { readonly baseUrl: string }): Router<AppState> {
  const router = new Router<AppState>();
  const body = JSON.stringify(buildOpenApiDocument(options));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  router.get('/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('ETag', etag);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return router;
}
