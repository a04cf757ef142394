import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { operatorActor } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { operatorLimitsBody, suspendBody } from './accounts.schemas';
import { reinstateAccount, setAccountLimits, suspendAccount } from './accounts.usecases';
import { OperatorAccountView } from './accounts.responses';

const account = (description: string) => ({ status: 200, schema: OperatorAccountView, description });

/** Operator interface (`X-Internal-Token`); the same actions exist as `npm run ctl -- accounts …`. */
export function operatorRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/internal/accounts', 'Operator');

  routes.define(
    {
      method: 'post',
      path: '/:id/suspend',
      auth: 'internal',
      operationId: 'suspendAccount',
      summary: 'Suspend an account (`{id}`: account id or email); stops its queued mail',
      body: suspendBody,
      ok: account('The account'),
      errors: ['ACCOUNT_NOT_FOUND'],
    },
    async (ctx) => {
      const { reason } = await readBody(ctx, suspendBody);
      const suspended = await suspendAccount({
        db: deps.db,
        actor: operatorActor(ctx),
        ref: ctx.params.id ?? '',
        reason,
      });
      deps.log.warn({ event: 'account_suspended', userId: suspended.id, reason }, 'account suspended');
      ctx.body = suspended;
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/:id/reinstate',
      auth: 'internal',
      operationId: 'reinstateAccount',
      summary: 'Reinstate a suspended account',
      ok: account('The account'),
      errors: ['ACCOUNT_NOT_FOUND'],
    },
    async (ctx) => {
      const reinstated = await reinstateAccount({
        db: deps.db,
        actor: operatorActor(ctx),
        ref: ctx.params.id ?? '',
      });
      deps.log.info({ event: 'account_reinstated', userId: reinstated.id }, 'account reinstated');
      ctx.body = reinstated;
    },
  );

  routes.define(
    {
      method: 'patch',
      path: '/:id/limits',
      auth: 'internal',
      operationId: 'setAccountLimits',
      summary: 'Set an account’s sending limits (may raise above the default; `null` = default)',
      body: operatorLimitsBody,
      ok: account('The account'),
      errors: ['ACCOUNT_NOT_FOUND'],
    },
    async (ctx) => {
      const limits = await readBody(ctx, operatorLimitsBody);
      ctx.body = await setAccountLimits({
        db: deps.db,
        actor: operatorActor(ctx),
        ref: ctx.params.id ?? '',
        limits,
      });
    },
  );

  return routes;
}
