import { z } from 'zod';
import { hasControlChars } from '../../shared/text';
import { requireSession } from '../../http/authenticate';
import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { listKeys } from './api-keys.repository';
import { apiKeyView, createApiKey, revokeApiKey } from './api-keys.usecases';
import { ApiKeyList, ApiKeyView, CreatedApiKeyView } from './api-keys.responses';

export const createBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((s) => !hasControlChars(s), 'must not contain control characters'),
  // Spec: `live` (the default); issue 21 adds `test`: `re_test_` tokens whose mail is captured.
  mode: z.enum(['live', 'test']).default('live'),
});

/** `/v1/api-keys`: creating and revoking need a session; listing works with either token. */
export function apiKeyRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/api-keys', 'API keys');

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'session',
      operationId: 'createApiKey',
      summary: 'Create an API key (session token only); the token is shown once',
      body: createBody,
      ok: { status: 201, schema: CreatedApiKeyView, description: 'Created' },
    },
    async (ctx) => {
      const userId = requireSession(ctx);
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
      operationId: 'revokeApiKey',
      summary: 'Revoke a key (session token only); effective immediately',
      ok: { status: 200, schema: ApiKeyView, description: 'The revoked key' },
      errors: ['API_KEY_NOT_FOUND'],
    },
    async (ctx) => {
      const userId = requireSession(ctx);
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
