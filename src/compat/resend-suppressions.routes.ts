import type { Kysely } from 'kysely';
import { z } from 'zod';
import { readBody } from '../http/body';
import type { ApiDeps } from '../http/context';
import { requestActor, requireAuth } from '../http/context';
import { RouteGroup } from '../http/route';
import type { Database, SuppressionType } from '../db/schema';
import type { SuppressionRow } from '../modules/suppressions/suppressions.repository';
import {
  findSuppression,
  findSuppressionByEmail,
  listSuppressions,
} from '../modules/suppressions/suppressions.repository';
import { createBody as v1CreateBody } from '../modules/suppressions/suppressions.routes';
import {
  createSuppression,
  removeSuppression,
  suppressionNotFound,
} from '../modules/suppressions/suppressions.usecases';
import { canonicalAddress } from '../modules/emails/address';
import { resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
import { validateAs } from './resend-validate';

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

function entry(row: SuppressionRow) {
  return {
    id: row.id,
    email: row.email,
    origin: ORIGINS[row.type],
    source_id: row.source_email_id,
    created_at: row.created_at,
  };
}

/** Resend's `get(idOrEmail)`: a `sup_` id, or the address itself. */
async function findByIdOrEmail(
  db: Kysely<Database>,
  userId: string,
  idOrEmail: string,
): Promise<SuppressionRow> {
  const row = idOrEmail.startsWith('sup_')
    ? await findSuppression(db, userId, idOrEmail)
    : idOrEmail.includes('@')
      ? await findSuppressionByEmail(db, userId, canonicalAddress(idOrEmail.trim()))
      : undefined;
  if (!row) throw suppressionNotFound();
  return row;
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
      ok: { status: 200, schema: 'ResendObjectId', description: 'Suppressed' },
      errors: ['SUPPRESSION_ALREADY_EXISTS'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const body = await readBody(ctx, addBody);
      const input = validateAs(v1CreateBody, { email: body.email, type: 'manual' });
      const created = await createSuppression({ db, userId, actor: requestActor(ctx), input });
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
      ok: { status: 200, schema: 'ResendSuppressionList', description: 'A page of suppressions' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const rows = await listSuppressions(db, {
        userId,
        type: q.origin === undefined ? undefined : TYPE_OF_ORIGIN[q.origin],
        before: q.after,
        limit: q.limit + 1,
      });
      ctx.body = { object: 'list', has_more: rows.length > q.limit, data: rows.slice(0, q.limit).map(entry) };
    },
  );

  routes.define(
    {
      ...common,
      method: 'get',
      path: '/:idOrEmail',
      operationId: 'resendGetSuppression',
      summary: 'Resend: one suppression, by id or by address',
      ok: { status: 200, schema: 'ResendSuppression', description: 'The suppression' },
      errors: ['SUPPRESSION_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const row = await findByIdOrEmail(db, userId, ctx.params.idOrEmail ?? '');
      ctx.body = { object: 'suppression', ...entry(row) };
    },
  );

  routes.define(
    {
      ...common,
      method: 'delete',
      path: '/:idOrEmail',
      operationId: 'resendRemoveSuppression',
      summary: 'Resend: remove a suppression, by id or by address',
      ok: { status: 200, schema: 'ResendDeleted', description: 'Removed' },
      errors: ['SUPPRESSION_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const row = await findByIdOrEmail(db, userId, ctx.params.idOrEmail ?? '');
      const removed = await removeSuppression({ db, userId, actor: requestActor(ctx), id: row.id });
      ctx.body = { object: 'suppression', id: removed.id, deleted: true };
    },
  );

  return routes;
}
