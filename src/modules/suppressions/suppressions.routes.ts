import { z } from 'zod';
import { validate } from '../../http/body';
import type { OperationRequest } from '../../http/operation';
import { defineOperation, serveOperation } from '../../http/operation';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { idCursorParam } from '../../shared/cursor';
import { hasControlChars } from '../../shared/text';
import { parseAddress } from '../../mail/address';
import { listSuppressions } from './suppressions.repository';
import {
  createSuppression,
  getSuppression,
  removeSuppression,
  suppressionView,
} from './suppressions.usecases';
import { SuppressionPage, SuppressionView } from './suppressions.responses';
import { Deleted } from '../../http/response-schema';

const TYPES = ['hard_bounce', 'soft_bounce', 'complaint', 'manual', 'unsubscribe'] as const;

const address = z
  .string()
  .trim()
  .max(254)
  .transform((s, ctx) => {
    const parsed = parseAddress(s);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'must be an email address' });
      return z.NEVER;
    }
    return parsed.address.toLowerCase();
  });

export const createBody = z.strictObject({
  email: address,
  // Issue 20: an address added by hand is `manual` unless the caller says otherwise.
  type: z.enum(TYPES).default('manual'),
  reason: z
    .string()
    .max(500)
    .refine((s) => !hasControlChars(s), 'must not contain control characters')
    .optional(),
});

export const listQuery = z.strictObject({
  email: address.optional(),
  /** Free text: a substring of the address (the dashboard's search box). */
  q: z.string().trim().min(1).max(254).optional(),
  type: z.enum(TYPES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: idCursorParam('sup').optional(),
});

/** The `/v1/suppressions` operations, which the Resend surface translates too (src/compat). */
export function suppressionOperations(deps: ApiDeps) {
  const { db } = deps;
  const byIdOrEmail = ({ params }: OperationRequest) => ({ idOrEmail: params.idOrEmail ?? '' });
  return {
    list: defineOperation({
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listSuppressions',
      summary: 'List the account’s suppressed addresses (filters: email exact, q substring, type)',
      query: listQuery,
      ok: { status: 200, schema: SuppressionPage, description: 'A page of suppressions' },
      parse: ({ query }) => query,
      run: async (ctx, q) => {
        const rows = await listSuppressions(db, {
          userId: requireAuth(ctx).userId,
          email: q.email,
          text: q.q,
          type: q.type,
          before: q.cursor,
          limit: q.limit + 1,
        });
        const page = rows.slice(0, q.limit);
        const hasMore = rows.length > q.limit;
        return {
          data: page.map(suppressionView),
          hasMore,
          nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null,
        };
      },
    }),
    create: defineOperation({
      method: 'post',
      path: '/',
      auth: 'either',
      operationId: 'createSuppression',
      summary: 'Suppress an address',
      body: createBody,
      ok: { status: 201, schema: SuppressionView, description: 'Created' },
      errors: ['SUPPRESSION_ALREADY_EXISTS', 'FORBIDDEN'],
      parse: ({ body }) => validate(createBody, body),
      run: (ctx, input) => {
        const { userId, mode } = requireAuth(ctx);
        return createSuppression({ db, userId, mode, actor: requestActor(ctx), input });
      },
    }),
    get: defineOperation({
      method: 'get',
      path: '/:idOrEmail',
      auth: 'either',
      operationId: 'getSuppression',
      summary: 'One suppression, by id (`sup_…`) or by address',
      ok: { status: 200, schema: SuppressionView, description: 'The suppression' },
      errors: ['SUPPRESSION_NOT_FOUND'],
      parse: byIdOrEmail,
      run: (ctx, { idOrEmail }) => getSuppression({ db, userId: requireAuth(ctx).userId, idOrEmail }),
    }),
    remove: defineOperation({
      method: 'delete',
      path: '/:idOrEmail',
      auth: 'either',
      operationId: 'deleteSuppression',
      summary: 'Remove a suppression, by id (`sup_…`) or by address',
      ok: { status: 200, schema: Deleted, description: 'Removed' },
      errors: ['SUPPRESSION_NOT_FOUND', 'FORBIDDEN'],
      parse: byIdOrEmail,
      run: (ctx, { idOrEmail }) => {
        const { userId, mode } = requireAuth(ctx);
        return removeSuppression({ db, userId, mode, actor: requestActor(ctx), idOrEmail });
      },
    }),
  };
}

/** `/v1/suppressions`: the account's suppression list. */
export function suppressionRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/suppressions', 'Suppressions');
  const ops = suppressionOperations(deps);
  serveOperation(routes, ops.list);
  serveOperation(routes, ops.create);
  serveOperation(routes, ops.get);
  serveOperation(routes, ops.remove);
  return routes;
}
