import { z } from 'zod';
import type { ApiDeps } from '../http/context';
import { requireAuth } from '../http/context';
import { RouteGroup } from '../http/route';
import { cancelEmail } from '../modules/sending/cancel-email';
import { acceptSendRequest, sendBodyLimit } from '../modules/sending/send-request';
import { getResendEmail, listResendEmails } from './resend-emails';
import { RESEND_TAG } from './resend-paths';
import { resendPageQuery } from './resend-page';
import { resendSendInput } from './resend-send-body';

/** What the OpenAPI document shows of a Resend send body; the route validates with /v1's schema. */
const resendSendSchema = z.looseObject({
  from: z.string(),
  to: z.union([z.string(), z.array(z.string())]),
  subject: z.string(),
  html: z.string().optional(),
  text: z.string().optional(),
  cc: z.union([z.string(), z.array(z.string())]).optional(),
  bcc: z.union([z.string(), z.array(z.string())]).optional(),
  reply_to: z.union([z.string(), z.array(z.string())]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  scheduled_at: z.string().optional(),
  tags: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  attachments: z
    .array(
      z.object({
        filename: z.string(),
        content: z.string(),
        content_type: z.string().optional(),
        content_id: z.string().optional(),
      }),
    )
    .optional(),
});

/** `/emails` as Resend's SDKs call it (issue 20): the one send path, Resend's shapes. */
export function resendEmailRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/emails', RESEND_TAG);
  const bodyLimit = sendBodyLimit(deps.config);

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'either',
      authInHandler: true,
      errorShape: 'resend',
      operationId: 'resendSendEmail',
      summary: 'Resend: send an email (queued as POST /v1/emails queues it)',
      body: resendSendSchema,
      ok: { status: 200, schema: 'ResendId', description: 'Queued: the email id' },
      errors: [
        'DOMAIN_NOT_FOUND',
        'DOMAIN_NOT_VERIFIED',
        'INVALID_FROM_ADDRESS',
        'INVALID_RECIPIENT',
        'TOO_MANY_RECIPIENTS',
        'SUPPRESSED_RECIPIENT',
        'EMAIL_TOO_LARGE',
        'IDEMPOTENCY_KEY_REUSED',
        'SENDING_LIMIT_EXCEEDED',
        'EMAIL_QUEUE_FAILED',
        'NOT_IMPLEMENTED',
      ],
      requestHeaders: { 'Idempotency-Key': 'As on POST /v1/emails' },
    },
    async (ctx) => {
      const result = await acceptSendRequest(deps, ctx, bodyLimit, resendSendInput);
      ctx.status = 200;
      ctx.body = { id: (result.body as { id: string }).id };
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      errorShape: 'resend',
      operationId: 'resendListEmails',
      summary: 'Resend: list sent emails, newest first',
      query: resendPageQuery('email'),
      ok: { status: 200, schema: 'ResendEmailList', description: 'A page of emails' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await listResendEmails({ db: deps.db, userId, limit: q.limit, after: q.after });
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id',
      ids: { id: 'email' },
      auth: 'either',
      errorShape: 'resend',
      operationId: 'resendGetEmail',
      summary: 'Resend: one email',
      ok: { status: 200, schema: 'ResendEmail', description: 'The email' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await getResendEmail({ db: deps.db, userId, emailId: ctx.params.id ?? '' });
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/:id/cancel',
      ids: { id: 'email' },
      auth: 'either',
      errorShape: 'resend',
      operationId: 'resendCancelEmail',
      summary: 'Resend: cancel a scheduled email',
      ok: { status: 200, schema: 'ResendObjectId', description: 'Cancelled' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_CANCELLABLE'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const email = await cancelEmail({ db: deps.db, log: deps.log, userId, emailId: ctx.params.id ?? '' });
      ctx.body = { object: 'email', id: email.id };
    },
  );

  return routes;
}
