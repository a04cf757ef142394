import Router from '@koa/router';
import { z } from 'zod';
import { hasControlChars } from '../../shared/text';
import { authenticate, requireSession } from '../../http/authenticate';
import { readBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { listKeys } from './api-keys.repository';
import { apiKeyView, createApiKey, revokeApiKey } from './api-keys.usecases';

export const createBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((s) => !hasControlChars(s), 'must not contain control characters'),
  // Spec: the request value is `live`; no other mode exists in this version.
  mode: z.literal('live').default('live'),
});

/** `/v1/api-keys`: creating and revoking need a session; listing works with either token. */
export function apiKeyRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/api-keys' });
  router.use(authenticate(deps));

  router.post('/', async (ctx) => {
    const userId = requireSession(ctx);
    const input = await readBody(ctx, createBody);
    ctx.status = 201;
    ctx.body = await createApiKey({ db: deps.db, userId, actor: requestActor(ctx), input });
  });

  router.get('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = { data: (await listKeys(deps.db, userId)).map(apiKeyView) };
  });

  router.delete('/:keyId', async (ctx) => {
    const userId = requireSession(ctx);
    ctx.body = await revokeApiKey({
      db: deps.db,
      userId,
      actor: requestActor(ctx),
      keyId: ctx.params.keyId ?? '',
    });
  });

  return router;
}
