import { z } from 'zod';
import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { sessionOperatorActor } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { cursorParam, pageBody } from '../../shared/cursor';
import { instantParam } from '../../shared/instant-param';
import { listAuditPage, withAuditNames } from '../audit';
import { findUserByEmail } from './accounts.repository';
import { OperatorAccountView } from './accounts.responses';
import { operatorLimitsBody, suspendBody } from './accounts.schemas';
import { AuditPage, OperatorAccountPage } from './operator-dashboard.responses';
import { reinstateAccount, setAccountLimits, suspendAccount } from './accounts.usecases';
import { listOperatorAccounts } from './operator-accounts';

const listAccountsQuery = z.strictObject({
  q: z.string().trim().min(1).max(100).optional(),
  status: z.enum(['ACTIVE', 'SUSPENDED']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: cursorParam('usr').optional(),
});

const auditQuery = z.strictObject({
  action: z.string().max(100).optional(),
  actor: z.string().max(200).optional(),
  target: z.string().max(200).optional(),
  account: z.string().max(64).optional(),
  from: instantParam('from').optional(),
  to: instantParam('to').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: cursorParam('aud').optional(),
});

/**
 * The `actor` filter as the audit screen names actors: an account's email stands for its id
 * (the screen shows emails, not ids); anything else is an actor id as stored (`usr_…`,
 * `cli:alice`, a key id).
 */
async function actorIdOf(db: ApiDeps['db'], actor: string): Promise<string> {
  if (!actor.includes('@')) return actor;
  return (await findUserByEmail(db, actor.trim().toLowerCase()))?.id ?? actor;
}

const reinstateBody = z.strictObject({ reason: z.string().trim().min(1).max(500).optional() });

const account = (description: string) => ({ status: 200, schema: OperatorAccountView, description });

/**
 * `/v1/operator`: the dashboard's operator screens (issue 19), for sessions of accounts with
 * the operator role. The actions are the /internal/accounts use cases, audited under the
 * acting user instead of the internal token; /internal/accounts stays for scripts.
 */
export function operatorDashboardRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/operator', 'Operator');

  routes.define(
    {
      method: 'get',
      path: '/accounts',
      auth: 'operator',
      operationId: 'operatorListAccounts',
      summary: 'Every account, newest first, with status, volume (24 h, 30 d) and limits',
      query: listAccountsQuery,
      ok: { status: 200, schema: OperatorAccountPage, description: 'A page of accounts' },
    },
    async (ctx, q) => {
      const page = await listOperatorAccounts({
        db: deps.db,
        config: deps.config,
        query: { text: q.q, status: q.status, beforeId: q.cursor, limit: q.limit },
      });
      ctx.body = pageBody(page);
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/accounts/:id/suspend',
      ids: { id: 'usr' },
      auth: 'operator',
      operationId: 'operatorSuspendAccount',
      summary: 'Suspend an account with a reason; stops its queued mail (never the operator’s own)',
      body: suspendBody,
      ok: account('The account'),
      errors: ['ACCOUNT_NOT_FOUND', 'CANNOT_SUSPEND_SELF'],
    },
    async (ctx) => {
      const { reason } = await readBody(ctx, suspendBody);
      const actor = sessionOperatorActor(ctx);
      const suspended = await suspendAccount({ db: deps.db, actor, ref: ctx.params.id ?? '', reason });
      deps.log.warn(
        { event: 'account_suspended', userId: suspended.id, reason, operator: actor.id },
        'account suspended',
      );
      ctx.body = suspended;
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/accounts/:id/reinstate',
      ids: { id: 'usr' },
      auth: 'operator',
      operationId: 'operatorReinstateAccount',
      summary: 'Reinstate a suspended account (the reason is kept in the audit log)',
      body: reinstateBody,
      ok: account('The account'),
      errors: ['ACCOUNT_NOT_FOUND'],
    },
    async (ctx) => {
      const { reason } = await readBody(ctx, reinstateBody);
      const actor = sessionOperatorActor(ctx);
      const reinstated = await reinstateAccount({
        db: deps.db,
        actor,
        ref: ctx.params.id ?? '',
        ...(reason === undefined ? {} : { reason }),
      });
      deps.log.info(
        { event: 'account_reinstated', userId: reinstated.id, operator: actor.id },
        'account reinstated',
      );
      ctx.body = reinstated;
    },
  );

  routes.define(
    {
      method: 'put',
      path: '/accounts/:id/limits',
      ids: { id: 'usr' },
      auth: 'operator',
      operationId: 'operatorSetAccountLimits',
      summary: 'Set an account’s sending limits (may raise above the default; `null` = default)',
      body: operatorLimitsBody,
      ok: account('The account'),
      errors: ['ACCOUNT_NOT_FOUND'],
    },
    async (ctx) => {
      const limits = await readBody(ctx, operatorLimitsBody);
      ctx.body = await setAccountLimits({
        db: deps.db,
        actor: sessionOperatorActor(ctx),
        ref: ctx.params.id ?? '',
        limits,
      });
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/audit',
      auth: 'operator',
      operationId: 'operatorListAudit',
      summary:
        'The audit log of every account, newest first (filters: action, actor (an id, or an account’s email), target, account, from/to)',
      query: auditQuery,
      ok: { status: 200, schema: AuditPage, description: 'A page of audit entries' },
    },
    async (ctx, q) => {
      const rows = await listAuditPage(deps.db, {
        action: q.action,
        actorId: q.actor === undefined ? undefined : await actorIdOf(deps.db, q.actor),
        target: q.target,
        userId: q.account,
        from: q.from,
        to: q.to,
        beforeId: q.cursor,
        limit: q.limit + 1,
      });
      const data = await withAuditNames(deps.db, rows.slice(0, q.limit));
      ctx.body = pageBody({ data, hasMore: rows.length > q.limit, lastId: data.at(-1)?.id ?? null });
    },
  );

  return routes;
}
