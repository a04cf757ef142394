import Router from '@koa/router';
import { authenticate } from '../../http/authenticate';
import { readBody, validate } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requireAuth } from '../../http/context';
import { validationError } from '../../shared/app-error';
import { contentDisposition, safeContentType } from './inbound-view';
import { listInboundQuery, patchInboundBody } from './inbound.schemas';
import {
  deleteInboundMessage,
  getAttachment,
  getRaw,
  listInboundViews,
  markInbound,
  openInbound,
} from './inbound.usecases';

function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown };
    if (typeof parsed.id === 'string' && /^inb_[0-9a-z]{26}$/.test(parsed.id)) return parsed.id;
  } catch {
    /* fall through */
  }
  throw validationError('cursor is not a cursor this API returned', { field: 'cursor' });
}

/** `/v1/inbound`: received mail of the calling account (spec: Inbound mail). */
export function inboundRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/inbound' });
  router.use(authenticate(deps));

  router.get('/', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const q = validate(listInboundQuery, ctx.query);
    const page = await listInboundViews({
      db: deps.db,
      query: {
        userId,
        unread: q.unread === 'true',
        domainId: q.domainId,
        search: q.search?.trim(),
        beforeId: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
        limit: q.limit,
      },
    });
    ctx.body = {
      data: page.data,
      hasMore: page.hasMore,
      nextCursor: page.lastId && page.hasMore ? encodeCursor(page.lastId) : null,
    };
  });

  router.get('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await openInbound({ db: deps.db, userId, id: ctx.params.id ?? '' });
  });

  router.patch('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, patchInboundBody);
    ctx.body = await markInbound({ db: deps.db, userId, id: ctx.params.id ?? '', read: input.read });
  });

  router.delete('/:id', async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await deleteInboundMessage({ db: deps.db, log: deps.log, userId, id: ctx.params.id ?? '' });
  });

  router.get('/:id/attachments/:attachmentId', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = ctx.params.id ?? '';
    const attachmentId = ctx.params.attachmentId ?? '';
    const file = await getAttachment({ db: deps.db, userId, id, attachmentId });
    ctx.set('Content-Disposition', contentDisposition(file.filename, attachmentId));
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Should a browser render it anyway: no scripts, no origin.
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = safeContentType(file.contentType);
    ctx.body = file.content;
  });

  router.get('/:id/raw', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = ctx.params.id ?? '';
    const raw = await getRaw({ db: deps.db, userId, id });
    ctx.set('Content-Disposition', `attachment; filename="${id}.eml"`);
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = 'message/rfc822';
    ctx.body = raw;
  });

  return router;
}
