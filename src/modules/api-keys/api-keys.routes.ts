import { z } from 'zod';
import { hasControlChars } from '../../shared/text';
import { API_KEY_PERMISSIONS } from '../../db/schema';
import { readBody } from '../../http/body';
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

/**
 * `/v1/api-keys`: creating and revoking need a session (spec, Authentication 3): an API key
 * of any permission or mode is FORBIDDEN, by the routes' declared auth. Listing, which shows
 * no token, works with a session or a `full_access` key.
 */
export function apiKeyRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/api-keys', 'API keys');

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'session',
      apiKeyRefusal: KEY_MANAGEMENT_REFUSAL,
      operationId: 'createApiKey',
      summary: 'Create an API key (session token only); the token is shown once',
      body: createBody,
      ok: { status: 201, schema: CreatedApiKeyView, description: 'Created' },
      errors: ['DOMAIN_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, createBody);
      ctx.status = 201;
      ctx.body = await createApiKey({ db: deps.db, userId, actor: requestActor(ctx), input });
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listApiKeys',
      summary: 'List the account’s keys (never their tokens)',
      ok: { status: 200, schema: ApiKeyList, description: 'Keys' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = { data: (await listKeys(deps.db, userId)).map(apiKeyView) };
    },
  );

  routes.define(
    {
      method: 'delete',
      path: '/:keyId',
      ids: { keyId: 'key' },
      auth: 'session',
      apiKeyRefusal: KEY_MANAGEMENT_REFUSAL,
      operationId: 'revokeApiKey',
      summary: 'Revoke a key (session token only); effective immediately',
      ok: { status: 200, schema: ApiKeyView, description: 'The revoked key' },
      errors: ['API_KEY_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await revokeApiKey({
        db: deps.db,
        userId,
        actor: requestActor(ctx),
        keyId: ctx.params.keyId ?? '',
      });
    },
  );

  return routes;
}
