import { z } from 'zod';
import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { getSettings, lowerOwnLimits } from './settings.usecases';
import { SettingsView } from './settings.responses';

const limit = z.number().int().min(0).max(10_000_000).nullable();

export const limitsBody = z
  .strictObject({ emailsPerHour: limit.optional(), emailsPerDay: limit.optional() })
  .refine((b) => b.emailsPerHour !== undefined || b.emailsPerDay !== undefined, {
    message: 'give emailsPerHour and/or emailsPerDay',
  });

/** `/v1/settings`: account view and self-service lowering of sending limits. */
export function settingsRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/settings', 'Account');

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'getSettings',
      summary: 'Account, limits (effective, override, default) and usage',
      ok: { status: 200, schema: SettingsView, description: 'Settings' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await getSettings({ db: deps.db, config: deps.config, userId });
    },
  );

  routes.define(
    {
      method: 'patch',
      path: '/limits',
      auth: 'either',
      operationId: 'lowerLimits',
      summary: 'Lower the account’s own sending limits (`null` returns to the default)',
      body: limitsBody,
      ok: { status: 200, schema: SettingsView, description: 'Updated settings' },
      errors: ['FORBIDDEN'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, limitsBody);
      ctx.body = await lowerOwnLimits({
        db: deps.db,
        config: deps.config,
        userId,
        actor: requestActor(ctx),
        input,
      });
    },
  );

  return routes;
}
