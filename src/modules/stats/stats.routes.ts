import { z } from 'zod';
import type { ApiDeps } from '../../http/context';
import { requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { accountHealthSignals } from '../abuse';
import { getOverview } from './stats.usecases';
import { HealthSignals, StatsOverview } from './stats.responses';

/** Longest overview window: a year of daily rows. */
export const MAX_DAYS = 365;

export const overviewQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(MAX_DAYS).default(30),
});

/** `/v1/stats`: the calling account's overview and health signals (API key or session). */
export function statsRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/stats', 'Statistics');

  routes.define(
    {
      method: 'get',
      path: '/overview',
      auth: 'either',
      operationId: 'statsOverview',
      summary: 'Counts by status, rates and quota usage over the last `days` UTC days',
      query: overviewQuery,
      ok: { status: 200, schema: StatsOverview, description: 'Overview' },
    },
    async (ctx, { days }) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await getOverview({ db: deps.db, config: deps.config, userId, days });
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/health-signals',
      auth: 'either',
      operationId: 'healthSignals',
      summary: 'The calling account’s abuse signals, computed now',
      ok: { status: 200, schema: HealthSignals, description: 'Signals' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await accountHealthSignals({ db: deps.db, userId });
    },
  );

  return routes;
}
