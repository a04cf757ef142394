import { z } from 'zod';
import { validate } from '../http/body';
import type { ApiDeps } from '../http/context';
import { serveTranslation } from '../http/operation';
import { RouteGroup } from '../http/route';
import { apiKeyOperations } from '../modules/api-keys/api-keys.routes';
import { resendPage, resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
import { ResendApiKeyList, ResendCreatedApiKey, ResendDeleted } from './resend.responses';

/** Resend's CreateApiKeyOptions; translated and then checked by /v1's schema. */
const createBody = z.strictObject({
  name: z.string().max(100),
  permission: z.enum(['full_access', 'sending_access']).optional(),
  domain_id: z.string().max(64).optional(),
});

/**
 * `/api-keys` as Resend's SDKs call it: the /v1 operations translated. Key management follows
 * /v1 (unlike Resend): only a session creates and revokes; any API key is 403
 * `restricted_api_key` naming the rule.
 */
export function resendApiKeyRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/api-keys', RESEND_TAG);
  const ops = apiKeyOperations(deps);

  serveTranslation(routes, ops.create, {
    method: 'post',
    path: '/',
    errorShape: 'resend',
    operationId: 'resendCreateApiKey',
    summary: 'Resend: create an API key; the token is shown once',
    body: createBody,
    ok: { status: 200, schema: ResendCreatedApiKey, description: 'Created' },
    request: (req) => {
      const body = validate(createBody, req.body);
      return { ...req, body: { name: body.name, permission: body.permission, domainId: body.domain_id } };
    },
    names: new Map([['domainId', 'domain_id']]),
    response: (created) => ({ id: created.id, token: created.token }),
  });

  serveTranslation(routes, ops.list, {
    method: 'get',
    path: '/',
    errorShape: 'resend',
    operationId: 'resendListApiKeys',
    summary: 'Resend: list the live API keys',
    query: resendPageQuery('key'),
    ok: { status: 200, schema: ResendApiKeyList, description: 'API keys' },
    response: (list, { query }) =>
      resendPage(
        list.data
          .filter((k) => k.revokedAt === null)
          .map((k) => ({ id: k.id, name: k.name, created_at: k.createdAt, last_used_at: k.lastUsedAt })),
        query,
      ),
  });

  serveTranslation(routes, ops.revoke, {
    method: 'delete',
    path: '/:id',
    ids: { id: 'key' },
    errorShape: 'resend',
    operationId: 'resendRemoveApiKey',
    summary: 'Resend: revoke an API key',
    ok: { status: 200, schema: ResendDeleted, description: 'Revoked' },
    request: (req) => ({ ...req, params: { keyId: req.params.id } }),
    response: (revoked) => ({ object: 'api_key', id: revoked.id, deleted: true }),
  });

  return routes;
}
