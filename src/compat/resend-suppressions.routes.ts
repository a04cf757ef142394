import { z } from 'zod';
import { readBody } from '../http/body';
import type { ApiDeps } from '../http/context';
import { requestActor, requireAuth } from '../http/context';
import { RouteGroup } from '../http/route';
import type { SuppressionType } from '../db/schema';
import { listSuppressions } from '../modules/suppressions/suppressions.repository';
import { createBody as v1CreateBody } from '../modules/suppressions/suppressions.routes';
import type { SuppressionView } from '../modules/suppressions/suppressions.usecases';
import {
  createSuppression,
  getSuppression,
  removeSuppression,
  suppressionView,
} from '../modules/suppressions/suppressions.usecases';
import { resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
import { validateAs } from './resend-validate';
import { ResendDeleted, ResendObjectId, ResendSuppression, ResendSuppressionList } from './resend.responses';

/** Resend's three origins over Mailroom's five types (docs/resend-compatibility.md). */
const ORIGINS: Readonly<Record<SuppressionType, 'bounce' | 'complaint' | 'manual'>> = {
  hard_bounce: 'bounce',
  soft_bounce: 'bounce',
  complaint: 'complaint',
  manual: 'manual',
  unsubscribe: 'manual',
};
const TYPE_OF_ORIGIN = { bounce: 'hard_bounce', complaint: 'complaint', manual: 'manual' } as const;

const addBody = z.strictObject({ email: z.string().max(254) });

const listQuery = resendPageQuery('sup').extend({
  origin: z.enum(['bounce', 'complaint', 'manual']).optional(),
});

function entry(view: SuppressionView) {
  return {
    id: view.id,
    email: view.email,
    origin: ORIGINS[view.type],
    source_id: view.sourceEmailId,
    created_at: view.createdAt,
  };
}

/** `/suppressions` as Resend's SDKs call it, on the /v1 suppression use cases. */
export function resendSuppressionRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/suppressions', RESEND_TAG);
  const { db } = deps;
  const common = { auth: 'either', errorShape: 'resend' } as const;

  routes.define(
    {
      ...common,
      method: 'post',
      path: '/',
      operationId: 'resendAddSuppression',
      summary: 'Resend: suppress an address (origin manual)',
      body: addBody,
      ok: { status: 200, schema: ResendObjectId, description: 'Suppressed' },
      errors: ['SUPPRESSION_ALREADY_EXISTS', 'FORBIDDEN'],
    },
    async (ctx) => {
      const { userId, mode } = requireAuth(ctx);
      const body = await readBody(ctx, addBody);
      const input = validateAs(v1CreateBody, { email: body.email, type: 'manual' });
      const created = await createSuppression({ db, userId, mode, actor: requestActor(ctx), input });
      ctx.body = { object: 'suppression', id: created.id };
    },
  );

  routes.define(
    {
      ...common,
      method: 'get',
      path: '/',
      operationId: 'resendListSuppressions',
      summary: 'Resend: list suppressed addresses, newest first',
      query: listQuery,
      ok: { status: 200, schema: ResendSuppressionList, description: 'A page of suppressions' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const rows = await listSuppressions(db, {
        userId,
        type: q.origin === undefined ? undefined : TYPE_OF_ORIGIN[q.origin],
        before: q.after,
        limit: q.limit + 1,
      });
      ctx.body = {
        object: 'list',
        has_more: rows.length > q.limit,
        data: rows.slice(0, q.limit).map((row) => entry(suppressionView(row))),
      };
    },
  );

  routes.define(
    {
      ...common,
      method: 'get',
      path: '/:idOrEmail',
      operationId: 'resendGetSuppression',
      summary: 'Resend: one suppression, by id or by address',
      ok: { status: 200, schema: ResendSuppression, description: 'The suppression' },
      errors: ['SUPPRESSION_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const view = await getSuppression({ db, userId, idOrEmail: ctx.params.idOrEmail ?? '' });
      ctx.body = { object: 'suppression', ...entry(view) };
    },
  );

  routes.define(
    {
      ...common,
      method: 'delete',
      path: '/:idOrEmail',
      operationId: 'resendRemoveSuppression',
      summary: 'Resend: remove a suppression, by id or by address',
      ok: { status: 200, schema: ResendDeleted, description: 'Removed' },
      errors: ['SUPPRESSION_NOT_FOUND', 'FORBIDDEN'],
    },
    async (ctx) => {
      const { userId, mode } = requireAuth(ctx);
      const idOrEmail = ctx.params.idOrEmail ?? '';
      const removed = await removeSuppression({ db, userId, mode, actor: requestActor(ctx), idOrEmail });
      ctx.body = { object: 'suppression', id: removed.id, deleted: true };
    },
  );

  return routes;
}
