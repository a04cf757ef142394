import Router from '@koa/router';
import { readBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { operatorActor } from '../../http/context';
import { requireInternalToken } from '../../http/internal-auth';
import { operatorLimitsBody, suspendBody } from './accounts.schemas';
import { reinstateAccount, setAccountLimits, suspendAccount } from './accounts.usecases';

/** Operator interface (`X-Internal-Token`); the same actions exist as `npm run ctl -- accounts …`. */
export function operatorRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/internal/accounts' });
  router.use(requireInternalToken(deps.config.internalApiToken));

  router.post('/:id/suspend', async (ctx) => {
    const { reason } = await readBody(ctx, suspendBody);
    const account = await suspendAccount({
      db: deps.db,
      actor: operatorActor(ctx),
      ref: ctx.params.id ?? '',
      reason,
    });
    deps.log.warn({ event: 'account_suspended', userId: account.id, reason }, 'account suspended');
    ctx.body = account;
  });

  router.post('/:id/reinstate', async (ctx) => {
    const account = await reinstateAccount({
      db: deps.db,
      actor: operatorActor(ctx),
      ref: ctx.params.id ?? '',
    });
    deps.log.info({ event: 'account_reinstated', userId: account.id }, 'account reinstated');
    ctx.body = account;
  });

  router.patch('/:id/limits', async (ctx) => {
    const limits = await readBody(ctx, operatorLimitsBody);
    ctx.body = await setAccountLimits({
      db: deps.db,
      actor: operatorActor(ctx),
      ref: ctx.params.id ?? '',
      limits,
    });
  });

  return router;
}
