import Router from '@koa/router';
import { z } from 'zod';
import { authenticate } from '../../http/authenticate';
import { readBody, validate } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { hasControlChars } from '../../shared/text';
import { parseAddress } from '../emails/address';
import { listSuppressions } from './suppressions.repository';
import { createSuppression, removeSuppression, suppressionView } from './suppressions.usecases';

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
  type: z.enum(TYPES),
  reason: z
    .string()
    .max(500)
    .refine((s) => !hasControlChars(s), 'must not contain control characters')
    .optional(),
});

export const listQuery = z.strictObject({
  email: address.optional(),
  type: z.enum(TYPES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(100).optional(),
});

/** `/v1/suppressions`: the account's suppression list. */
export function suppressionRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/suppressions' });
  router.use(authenticate(deps));

  router.get('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const q = validate(listQuery, ctx.query);
    const rows = await listSuppressions(deps.db, {
      userId,
      email: q.email,
      type: q.type,
      before: q.cursor,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const hasMore = rows.length > q.limit;
    ctx.body = {
      data: page.map(suppressionView),
      hasMore,
      nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null,
    };
  });

  router.post('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, createBody);
    ctx.status = 201;
    ctx.body = await createSuppression({ db: deps.db, userId, actor: requestActor(ctx), input });
  });

  router.delete('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await removeSuppression({
      db: deps.db,
      userId,
      actor: requestActor(ctx),
      id: ctx.params.id ?? '',
    });
  });

  return router;
}
