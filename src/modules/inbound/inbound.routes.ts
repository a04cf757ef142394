import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { previewBody, previewHeaders, previewQuery } from '../../shared/message-preview';
import { pageBody } from '../../shared/cursor';
import { contentDisposition, safeContentType } from './inbound-view';
import { listInboundQuery, patchInboundBody } from './inbound.schemas';
import {
  deleteInboundMessage,
  getAttachment,
  getRaw,
  inboundPart,
  listInboundViews,
  markInbound,
  openInbound,
} from './inbound.usecases';
import { InboundMessageView, InboundPage } from './inbound.responses';
import { Deleted } from '../../http/response-schema';
import { rawStoreFor } from './raw-store-of';

/** `/v1/inbound`: received mail of the calling account (spec: Inbound mail). */
export function inboundRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/inbound', 'Inbound');
  const rawStore = rawStoreFor(deps.db, deps.config.dataDir);

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listInbound',
      summary: 'List received messages, newest first',
      query: listInboundQuery,
      ok: { status: 200, schema: InboundPage, description: 'A page of message summaries' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const page = await listInboundViews({
        db: deps.db,
        query: {
          userId,
          unread: q.unread === 'true',
          domainId: q.domainId,
          search: q.search?.trim(),
          beforeId: q.cursor,
          limit: q.limit,
        },
      });
      ctx.body = pageBody(page);
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id',
      ids: { id: 'inb' },
      auth: 'either',
      operationId: 'getInbound',
      summary: 'One received message; marks it read',
      ok: { status: 200, schema: InboundMessageView, description: 'The message' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await openInbound({
        db: deps.db,
        actor: requestActor(ctx),
        userId,
        id: ctx.params.id ?? '',
      });
    },
  );

  routes.define(
    {
      method: 'patch',
      path: '/:id',
      ids: { id: 'inb' },
      auth: 'either',
      operationId: 'markInbound',
      summary: 'Mark read or unread',
      body: patchInboundBody,
      ok: { status: 200, schema: InboundMessageView, description: 'The message' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, patchInboundBody);
      ctx.body = await markInbound({
        db: deps.db,
        actor: requestActor(ctx),
        userId,
        id: ctx.params.id ?? '',
        read: input.read,
      });
    },
  );

  routes.define(
    {
      method: 'delete',
      path: '/:id',
      ids: { id: 'inb' },
      auth: 'either',
      operationId: 'deleteInbound',
      summary: 'Delete a received message and its attachments',
      ok: { status: 200, schema: Deleted, description: 'Deleted' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await deleteInboundMessage({
        db: deps.db,
        rawStore,
        log: deps.log,
        actor: requestActor(ctx),
        userId,
        id: ctx.params.id ?? '',
      });
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id/attachments/:attachmentId',
      ids: { id: 'inb' },
      auth: 'either',
      operationId: 'getInboundAttachment',
      summary: 'An attachment’s bytes (`Content-Disposition: attachment`, nosniff)',
      ok: { status: 200, description: 'The file', contentType: 'application/octet-stream' },
      errors: ['EMAIL_NOT_FOUND', 'ATTACHMENT_NOT_FOUND'],
    },
    async (ctx) => {
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
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id/preview',
      ids: { id: 'inb' },
      auth: 'either',
      operationId: 'previewInbound',
      summary:
        'The received html or text body, inert: its own CSP (sandbox, no scripts, remote images only on request)',
      query: previewQuery,
      ok: { status: 200, description: 'The body', contentType: 'text/html' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_PART_NOT_FOUND'],
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const body = await inboundPart({ db: deps.db, userId, id: ctx.params.id ?? '', part: q.part });
      ctx.set(previewHeaders(q.part, q.remoteImages === '1'));
      ctx.body = previewBody(q.part, body);
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id/raw',
      ids: { id: 'inb' },
      auth: 'either',
      operationId: 'getInboundRaw',
      summary: 'The original message bytes',
      ok: { status: 200, description: 'The message as received', contentType: 'message/rfc822' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const id = ctx.params.id ?? '';
      const raw = await getRaw({ db: deps.db, rawStore, userId, id });
      ctx.set('Content-Disposition', `attachment; filename="${id}.eml"`);
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.type = 'message/rfc822';
      ctx.body = raw;
    },
  );

  return routes;
}
