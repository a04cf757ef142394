import Router from '@koa/router';
import { z } from 'zod';
import { authenticate } from '../../http/authenticate';
import { validate } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requireAuth } from '../../http/context';
import { accountHealthSignals } from '../abuse/abuse.usecases';
import { getOverview } from './stats.usecases';

/** Longest overview window: a year of daily rows. */
export const MAX_DAYS = 365;

export const overviewQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(MAX_DAYS).default(30),
});

/** `/v1/stats`: the calling account's overview and health signals (API key or session). */
export function statsRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/stats' });
  router.use(authenticate(deps));

  router.get('/overview', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const { days } = validate(overviewQuery, ctx.query);
    ctx.body = await getOverview({ db: deps.db, config: deps.config, userId, days });
  });

  router.get('/health-signals', async (ctx) => {
    const { userId } = requireAuth(ctx);
    validate(z.strictObject({}), ctx.query);
    ctx.body = await accountHealthSignals({ db: deps.db, userId });
  });

  return router;
}
