import { z } from 'zod';
import { requireAuth } from '../http/context';
import { validate, validationFailure } from '../http/body';
import { serveTranslation } from '../http/operation';
import { RouteGroup } from '../http/route';
import {
  cancelEmailOperation,
  rescheduleEmailOperation,
  sendEmailOperation,
} from '../modules/sending/emails.routes';
import { MAX_BATCH, sendBatchOperation } from '../modules/sending/email-batch.routes';
import type { SendRouteDeps } from '../modules/sending/send-request';
import { featureNotImplemented } from './resend-errors';
import { getResendEmail, listResendEmails } from './resend-emails';
import { RESEND_TAG } from './resend-paths';
import { resendPageQuery } from './resend-page';
import { RESEND_SEND_NAMES } from './resend-names';
import { resendSendBody } from './resend-send-body';
import { ResendBatch, ResendEmail, ResendEmailList, ResendId, ResendObjectId } from './resend.responses';

/** A Resend batch as /v1's: each message translated as a single send is; /v1 validates them. */
function resendBatchBody(json: unknown): unknown {
  if (!Array.isArray(json) || json.length === 0 || json.length > MAX_BATCH) {
    throw validationFailure([{ field: '(body)', message: `must be an array of 1 to ${MAX_BATCH} emails` }]);
  }
  return json.map(resendSendBody);
}

const updateBody = z.strictObject({ scheduled_at: z.string().max(64) });

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

/**
 * `/emails` as Resend's SDKs call it (issue 20): the sends, the reschedule and the cancel are
 * the /v1 operations translated (one validation, one body limit, one use case); the two reads
 * answer Resend's email object, which holds what the spec's view does not (the bodies, the
 * recipients' display names), from the emails module.
 */
export function resendEmailRoutes(deps: SendRouteDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/emails', RESEND_TAG);

  serveTranslation(routes, sendEmailOperation(deps), {
    method: 'post',
    path: '/',
    errorShape: 'resend',
    operationId: 'resendSendEmail',
    summary: 'Resend: send an email (queued as POST /v1/emails queues it)',
    body: resendSendSchema,
    ok: { status: 200, schema: ResendId, description: 'Queued: the email id' },
    errors: ['NOT_IMPLEMENTED'],
    requestHeaders: { 'Idempotency-Key': 'As on POST /v1/emails' },
    request: (req) => ({ ...req, body: resendSendBody(req.body) }),
    names: RESEND_SEND_NAMES,
    // Resend answers 200 `{id}` where /v1 answers 202 `{id, status, createdAt}`.
    response: (result) => ({ id: (result.body as { id: string }).id }),
  });

  serveTranslation(routes, sendBatchOperation(deps), {
    method: 'post',
    path: '/batch',
    errorShape: 'resend',
    operationId: 'resendSendBatch',
    summary: `Resend: send up to ${MAX_BATCH} emails, all queued or none (POST /v1/emails/batch)`,
    body: z.array(resendSendSchema).min(1).max(MAX_BATCH),
    ok: { status: 200, schema: ResendBatch, description: 'Queued, in the order given' },
    errors: ['NOT_IMPLEMENTED'],
    requestHeaders: {
      'Idempotency-Key': 'As on POST /v1/emails/batch',
      'x-batch-validation': '`strict` (the default): one invalid email refuses the batch',
    },
    // Resend's permissive mode sends the valid emails of a batch; Mailroom's batch is one transaction.
    precheck: (ctx) => {
      if ((ctx.get('x-batch-validation') || 'strict') !== 'strict')
        throw featureNotImplemented(
          'Permissive batch validation (x-batch-validation: permissive) is not supported',
        );
    },
    request: (req) => ({ ...req, body: resendBatchBody(req.body) }),
    names: RESEND_SEND_NAMES,
    response: (result) => ({
      data: (result.body as { data: { id: string }[] }).data.map(({ id }) => ({ id })),
    }),
  });

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      errorShape: 'resend',
      operationId: 'resendListEmails',
      summary: 'Resend: list sent emails, newest first',
      query: resendPageQuery('email'),
      ok: { status: 200, schema: ResendEmailList, description: 'A page of emails' },
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
      ok: { status: 200, schema: ResendEmail, description: 'The email' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await getResendEmail({ db: deps.db, userId, emailId: ctx.params.id ?? '' });
    },
  );

  serveTranslation(routes, rescheduleEmailOperation(deps), {
    method: 'patch',
    path: '/:id',
    errorShape: 'resend',
    operationId: 'resendUpdateEmail',
    summary: 'Resend: reschedule a scheduled email (PATCH /v1/emails/{id})',
    body: updateBody,
    ok: { status: 200, schema: ResendObjectId, description: 'Rescheduled' },
    request: (req) => ({ ...req, body: { scheduledAt: validate(updateBody, req.body).scheduled_at } }),
    names: RESEND_SEND_NAMES,
    response: (email) => ({ object: 'email', id: email.id }),
  });

  serveTranslation(routes, cancelEmailOperation(deps), {
    method: 'post',
    path: '/:id/cancel',
    errorShape: 'resend',
    operationId: 'resendCancelEmail',
    summary: 'Resend: cancel a scheduled email',
    ok: { status: 200, schema: ResendObjectId, description: 'Cancelled' },
    response: (email) => ({ object: 'email', id: email.id }),
  });

  return routes;
}
