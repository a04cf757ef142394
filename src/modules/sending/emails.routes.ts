import { validate, validationFailure } from '../../http/body';
import { defineOperation, serveOperation } from '../../http/operation';
import type { AppContext } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { readConsistently } from '../../db/read-consistently';
import { pageBody } from '../../shared/cursor';
import { canonicalAddress } from '../../mail/address';
import {
  accountEmailWithRecipients,
  emailPart,
  getCapturedRaw,
  getEmailView,
  listEmailViews,
} from '../emails';
import { messageBytes } from '../delivery';
import { previewBody, previewHeaders, previewQuery } from '../../shared/message-preview';
import { cancelEmail } from './cancel-email';
import { deliveryView } from '../delivery';
import { findPendingSend } from '../delivery';
import { sendBatchOperation } from './email-batch.routes';
import { listEmailsQuery, oversizedCollections, rescheduleBody, sendEmailBody } from './emails.schemas';
import { rescheduleEmail } from './reschedule-email';
import { signalWork } from '../../shared/work-signal';
import { sendEmail } from './send-email';
import type { SendRouteDeps } from './send-request';
import { answerSend, sendRoute, sendDeps } from './send-request';
import { EmailDetail, SendAccepted } from './sending.responses';
import { EmailPage, EmailView } from '../emails';
import { unsubscribeKey } from '../unsubscribe';

/**
 * `POST /v1/emails`. The spec's pipeline validates the body before authenticating, so the
 * operation authenticates after `parse` (`authInHandler`). A body over AUTH_FIRST_BYTES (or of
 * undeclared length) is authenticated first: an anonymous caller must not make the service read
 * and validate megabytes (issue 17 finding 5).
 */
export function sendEmailOperation(deps: SendRouteDeps) {
  return defineOperation({
    ...sendRoute(deps),
    method: 'post',
    path: '/',
    operationId: 'sendEmail',
    summary: 'Queue a message (202 once durably queued; not delivered)',
    body: sendEmailBody,
    ok: { status: 202, schema: SendAccepted, description: 'Queued' },
    parse: ({ body, bytes }) => {
      const oversized = oversizedCollections(body);
      if (oversized.length > 0) throw validationFailure(oversized);
      return { input: validate(sendEmailBody, body), bytes: bytes ?? Buffer.alloc(0) };
    },
    run: (ctx, { input, bytes }) => sendEmail({ ...sendDeps(deps, ctx, requireAuth(ctx), bytes), input }),
    answer: (ctx, result) => answerSend(ctx, result, result.queued?.[0]),
  });
}

/** Who acts on one of the account's messages (reschedule, cancel), and how the change is logged. */
function emailAction(deps: SendRouteDeps, ctx: AppContext) {
  const { userId, mode } = requireAuth(ctx);
  return { db: deps.db, log: deps.log, actor: requestActor(ctx), mode, userId };
}

/** `PATCH /v1/emails/{id}`. */
export function rescheduleEmailOperation(deps: SendRouteDeps) {
  return defineOperation({
    method: 'patch',
    path: '/:id',
    ids: { id: 'email' },
    auth: 'either',
    operationId: 'rescheduleEmail',
    testKey: true,
    summary: 'Move a still-scheduled message to another time',
    body: rescheduleBody,
    ok: { status: 200, schema: EmailView, description: 'The rescheduled message' },
    errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_SCHEDULED', 'FORBIDDEN'],
    parse: ({ body, params }) => ({ emailId: params.id ?? '', input: validate(rescheduleBody, body) }),
    run: async (ctx, { emailId, input }) => {
      const done = await rescheduleEmail({ ...emailAction(deps, ctx), emailId, input });
      if (done.due) signalWork();
      return done.email;
    },
  });
}

/** `POST /v1/emails/{id}/cancel`. */
export function cancelEmailOperation(deps: SendRouteDeps) {
  return defineOperation({
    method: 'post',
    path: '/:id/cancel',
    ids: { id: 'email' },
    auth: 'either',
    operationId: 'cancelEmail',
    testKey: true,
    summary: 'Cancel a message still queued (typically scheduled)',
    ok: { status: 200, schema: EmailView, description: 'The cancelled message' },
    errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_CANCELLABLE', 'FORBIDDEN'],
    parse: ({ params }) => ({ emailId: params.id ?? '' }),
    run: (ctx, { emailId }) => cancelEmail({ ...emailAction(deps, ctx), emailId }),
  });
}

/** `/v1/emails`: send, list, retrieve, cancel. */
export function emailRoutes(deps: SendRouteDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/emails', 'Emails');

  serveOperation(routes, sendEmailOperation(deps));
  serveOperation(routes, sendBatchOperation(deps));

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listEmails',
      summary:
        'List messages, newest first (keyset pages); filters: status, domainId, tag, recipient, from/to, q; total=1 adds how many match',
      query: listEmailsQuery,
      ok: { status: 200, schema: EmailPage, description: 'A page of messages (no events)' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const page = await listEmailViews({
        db: deps.db,
        userId,
        query: {
          userId,
          status: q.status,
          domainId: q.domainId,
          recipient: q.recipient === undefined ? undefined : canonicalAddress(q.recipient.trim()),
          tag: q.tag,
          createdFrom: q.from,
          createdBefore: q.to,
          text: q.q,
          beforeId: q.cursor,
          limit: q.limit,
        },
        withTotal: q.total === '1',
      });
      ctx.body = page.total ? { ...pageBody(page), total: page.total } : pageBody(page);
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id',
      ids: { id: 'email' },
      auth: 'either',
      operationId: 'getEmail',
      summary: 'One message with recipients, events and its delivery state (why it is still queued)',
      ok: { status: 200, schema: EmailDetail, description: 'The message' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      // The pending hand-off job from the same snapshot as the message.
      const { view, pending } = await readConsistently(deps.db, async (db) => {
        const view = await getEmailView({ db, userId, emailId: ctx.params.id ?? '' });
        return { view, pending: await findPendingSend(db, view.id) };
      });
      const facts = { ...view, events: view.events ?? [] };
      ctx.body = { ...view, delivery: deliveryView(facts, pending, deps.config.mtaRetryIntervals) };
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id/preview',
      ids: { id: 'email' },
      auth: 'either',
      operationId: 'previewEmail',
      summary:
        'The stored html or text body, inert: its own CSP (sandbox, no scripts, remote images only on request)',
      query: previewQuery,
      ok: { status: 200, description: 'The body', contentType: 'text/html' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_PART_NOT_FOUND'],
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      const body = await emailPart({ db: deps.db, userId, emailId: ctx.params.id ?? '', part: q.part });
      ctx.set(previewHeaders(q.part, q.remoteImages === '1'));
      ctx.body = previewBody(q.part, body);
    },
  );

  serveOperation(routes, rescheduleEmailOperation(deps));

  routes.define(
    {
      method: 'get',
      path: '/:id/raw',
      ids: { id: 'email' },
      auth: 'either',
      operationId: 'getEmailRaw',
      summary:
        'The message as a download: test mail as captured (signed); live mail as delivery builds it for the MTA',
      ok: { status: 200, description: 'The message', contentType: 'message/rfc822' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const id = ctx.params.id ?? '';
      const { email, recipients } = await accountEmailWithRecipients({ db: deps.db, userId, emailId: id });
      // Test mail was captured as signed (issue 21). Live mail keeps no sent copy: it is built
      // by the hand-off's own code, without what the MTA adds (DKIM-Signature, Received).
      const raw =
        email.mode === 'test'
          ? await getCapturedRaw({ db: deps.db, userId, emailId: id })
          : await messageBytes({
              db: deps.db,
              baseUrl: deps.config.baseUrl,
              unsubscribeKey: unsubscribeKey(deps.config.secretKey),
              email,
              recipients,
            });
      ctx.set('Content-Disposition', `attachment; filename="${id}.eml"`);
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.type = 'message/rfc822';
      ctx.body = raw;
    },
  );

  serveOperation(routes, cancelEmailOperation(deps));

  return routes;
}
