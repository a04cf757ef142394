import { z } from 'zod';
import { validate } from '../http/body';
import type { ApiDeps } from '../http/context';
import { serveTranslation } from '../http/operation';
import { RouteGroup } from '../http/route';
import type { SuppressionType } from '../db/schema';
import { suppressionOperations } from '../modules/suppressions/suppressions.routes';
import type { SuppressionView } from '../modules/suppressions/suppressions.usecases';
import { resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
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

/** `/suppressions` as Resend's SDKs call it: the /v1 suppression operations translated. */
export function resendSuppressionRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/suppressions', RESEND_TAG);
  const ops = suppressionOperations(deps);

  serveTranslation(routes, ops.create, {
    method: 'post',
    path: '/',
    errorShape: 'resend',
    operationId: 'resendAddSuppression',
    summary: 'Resend: suppress an address (origin manual)',
    body: addBody,
    ok: { status: 200, schema: ResendObjectId, description: 'Suppressed' },
    request: (req) => ({ ...req, body: { email: validate(addBody, req.body).email, type: 'manual' } }),
    response: (created) => ({ object: 'suppression', id: created.id }),
  });

  serveTranslation(routes, ops.list, {
    method: 'get',
    path: '/',
    errorShape: 'resend',
    operationId: 'resendListSuppressions',
    summary: 'Resend: list suppressed addresses, newest first',
    query: listQuery,
    ok: { status: 200, schema: ResendSuppressionList, description: 'A page of suppressions' },
    request: ({ query: q, ...req }) => ({
      ...req,
      query: {
        limit: q.limit,
        cursor: q.after,
        type: q.origin === undefined ? undefined : TYPE_OF_ORIGIN[q.origin],
      },
    }),
    response: (page) => ({ object: 'list', has_more: page.hasMore, data: page.data.map(entry) }),
  });

  serveTranslation(routes, ops.get, {
    method: 'get',
    path: '/:idOrEmail',
    errorShape: 'resend',
    operationId: 'resendGetSuppression',
    summary: 'Resend: one suppression, by id or by address',
    ok: { status: 200, schema: ResendSuppression, description: 'The suppression' },
    response: (view) => ({ object: 'suppression', ...entry(view) }),
  });

  serveTranslation(routes, ops.remove, {
    method: 'delete',
    path: '/:idOrEmail',
    errorShape: 'resend',
    operationId: 'resendRemoveSuppression',
    summary: 'Resend: remove a suppression, by id or by address',
    ok: { status: 200, schema: ResendDeleted, description: 'Removed' },
    response: (removed) => ({ object: 'suppression', id: removed.id, deleted: true }),
  });

  return routes;
}
