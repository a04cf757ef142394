import { z } from 'zod';
import { readBody } from '../http/body';
import type { ApiDeps } from '../http/context';
import { requestActor, requireAuth } from '../http/context';
import { RouteGroup } from '../http/route';
import { listKeys } from '../modules/api-keys/api-keys.repository';
import { createBody as v1CreateBody } from '../modules/api-keys/api-keys.routes';
import { KEY_MANAGEMENT_REFUSAL, createApiKey, revokeApiKey } from '../modules/api-keys/api-keys.usecases';
import { resendPage, resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
import { validateAs } from './resend-validate';
import { ResendApiKeyList, ResendCreatedApiKey, ResendDeleted } from './resend.responses';

/** Resend's CreateApiKeyOptions; translated and then checked by /v1's schema. */
const createBody = z.strictObject({
  name: z.string().max(100),
  permission: z.enum(['full_access', 'sending_access']).optional(),
  domain_id: z.string().max(64).optional(),
});

/**
 * `/api-keys` as Resend's SDKs call it. Key management follows /v1 (unlike Resend): only a
 * session creates and revokes; any API key is 403 `restricted_api_key` naming the rule.
 */
export function resendApiKeyRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/api-keys', RESEND_TAG);
  const { db } = deps;

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'session',
      apiKeyRefusal: KEY_MANAGEMENT_REFUSAL,
      errorShape: 'resend',
      operationId: 'resendCreateApiKey',
      summary: 'Resend: create an API key; the token is shown once',
      body: createBody,
      ok: { status: 200, schema: ResendCreatedApiKey, description: 'Created' },
      errors: ['DOMAIN_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const body = await readBody(ctx, createBody);
      const input = validateAs(
        v1CreateBody,
        { name: body.name, permission: body.permission, domainId: body.domain_id },
        new Map([['domainId', 'domain_id']]),
      );
      const created = await createApiKey({ db, userId, actor: requestActor(ctx), input });
      ctx.body = { id: created.id, token: created.token };
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      errorShape: 'resend',
      operationId: 'resendListApiKeys',
      summary: 'Resend: list the live API keys',
      query: resendPageQuery('key'),
      ok: { status: 200, schema: ResendApiKeyList, description: 'API keys' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const keys = (await listKeys(db, userId))
        .filter((k) => k.revoked_at === null)
        .map((k) => ({ id: k.id, name: k.name, created_at: k.created_at, last_used_at: k.last_used_at }));
      ctx.body = resendPage(keys, q);
    },
  );

  routes.define(
    {
      method: 'delete',
      path: '/:id',
      ids: { id: 'key' },
      auth: 'session',
      apiKeyRefusal: KEY_MANAGEMENT_REFUSAL,
      errorShape: 'resend',
      operationId: 'resendRemoveApiKey',
      summary: 'Resend: revoke an API key',
      ok: { status: 200, schema: ResendDeleted, description: 'Revoked' },
      errors: ['API_KEY_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const revoked = await revokeApiKey({
        db,
        userId,
        actor: requestActor(ctx),
        keyId: ctx.params.id ?? '',
      });
      ctx.body = { object: 'api_key', id: revoked.id, deleted: true };
    },
  );

  return routes;
}
