import { z } from 'zod';
import { hasControlChars } from '../../shared/text';
import { API_KEY_PERMISSIONS } from '../../db/schema';
import { validate } from '../../http/body';
import { defineOperation, serveOperation } from '../../http/operation';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { listKeys } from './api-keys.repository';
import { KEY_MANAGEMENT_REFUSAL, apiKeyView, createApiKey, revokeApiKey } from './api-keys.usecases';
import { ApiKeyList, ApiKeyView, CreatedApiKeyView } from './api-keys.responses';

export const createBody = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((s) => !hasControlChars(s), 'must not contain control characters'),
    // Spec: `live` (the default); issue 21 adds `test`: `re_test_` tokens whose mail is captured.
    mode: z.enum(['live', 'test']).default('live'),
    /** Issue 20: Resend's two permissions; `full_access` is everything but key management. */
    permission: z.enum(API_KEY_PERMISSIONS).default('full_access'),
    domainId: z.string().max(64).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.domainId !== undefined && b.permission !== 'sending_access') {
      ctx.addIssue({
        code: 'custom',
        path: ['domainId'],
        message: 'only a sending_access key is held to a domain',
      });
    }
  });

/** The `/v1/api-keys` operations, which the Resend surface translates too (src/compat). */
export function apiKeyOperations(deps: ApiDeps) {
  const { db } = deps;
  return {
    create: defineOperation({
      method: 'post',
      path: '/',
      auth: 'session',
      apiKeyRefusal: KEY_MANAGEMENT_REFUSAL,
      operationId: 'createApiKey',
      summary: 'Create an API key (session token only); the token is shown once',
      body: createBody,
      ok: { status: 201, schema: CreatedApiKeyView, description: 'Created' },
      errors: ['DOMAIN_NOT_FOUND'],
      parse: ({ body }) => validate(createBody, body),
      run: (ctx, input) =>
        createApiKey({ db, userId: requireAuth(ctx).userId, actor: requestActor(ctx), input }),
    }),
    list: defineOperation({
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listApiKeys',
      summary: 'List the account’s keys (never their tokens)',
      ok: { status: 200, schema: ApiKeyList, description: 'Keys' },
      parse: () => ({}),
      run: async (ctx) => ({ data: (await listKeys(db, requireAuth(ctx).userId)).map(apiKeyView) }),
    }),
    revoke: defineOperation({
      method: 'delete',
      path: '/:keyId',
      ids: { keyId: 'key' },
      auth: 'session',
      apiKeyRefusal: KEY_MANAGEMENT_REFUSAL,
      operationId: 'revokeApiKey',
      summary: 'Revoke a key (session token only); effective immediately',
      ok: { status: 200, schema: ApiKeyView, description: 'The revoked key' },
      errors: ['API_KEY_NOT_FOUND'],
      parse: ({ params }) => ({ keyId: params.keyId ?? '' }),
      run: (ctx, { keyId }) =>
        revokeApiKey({ db, userId: requireAuth(ctx).userId, actor: requestActor(ctx), keyId }),
    }),
  };
}

/**
 * `/v1/api-keys`: creating and revoking need a session (spec, Authentication 3): an API key
 * of any permission or mode is FORBIDDEN, by the routes' declared auth. Listing, which shows
 * no token, works with a session or a `full_access` key.
 */
export function apiKeyRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/api-keys', 'API keys');
  const ops = apiKeyOperations(deps);
  serveOperation(routes, ops.create);
  serveOperation(routes, ops.list);
  serveOperation(routes, ops.revoke);
  return routes;
}
