import Router from '@koa/router';
import { z } from 'zod';
import { authenticate } from '../../http/authenticate';
import { readBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { getSettings, lowerOwnLimits } from './settings.usecases';

const limit = z.number().int().min(0).max(10_000_000).nullable();

export const limitsBody = z
  .strictObject({ emailsPerHour: limit.optional(), emailsPerDay: limit.optional() })
  .refine((b) => b.emailsPerHour !== undefined || b.emailsPerDay !== undefined, {
    message: 'give emailsPerHour and/or emailsPerDay',
  });

/** `/v1/settings`: account view and self-service lowering of sending limits. */
export function settingsRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/settings' });
  router.use(authenticate(deps));

  router.get('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await getSettings({ db: deps.db, config: deps.config, userId });
  });

  router.patch('/limits', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, limitsBody);
    ctx.body = await lowerOwnLimits({
      db: deps.db,
      config: deps.config,
      userId,
      actor: requestActor(ctx),
      input,
    });
  });

  return router;
}
