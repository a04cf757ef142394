import { z } from 'zod';
import { requestActor, requireAuth } from '../http/context';
import { RouteGroup } from '../http/route';
import { resolveAuth } from '../http/authenticate';
import { readBody, validationFailure } from '../http/body';
import { isAppError } from '../shared/app-error';
import type { FieldIssue } from '../shared/app-error';
import { signalWork } from '../shared/work-signal';
import { cancelEmail } from '../modules/sending/cancel-email';
import { MAX_BATCH } from '../modules/sending/email-batch.routes';
import type { SendEmailInput } from '../modules/sending/emails.schemas';
import { rescheduleBody } from '../modules/sending/emails.schemas';
import { rescheduleEmail } from '../modules/sending/reschedule-email';
import { sendEmail, sendEmailBatch } from '../modules/sending/send-email';
import type { SendRouteDeps } from '../modules/sending/send-request';
import { answerSend, readSendJson, SEND_ERRORS, sendDeps } from '../modules/sending/send-request';
import { featureNotImplemented } from './resend-errors';
import { getResendEmail, listResendEmails } from './resend-emails';
import { RESEND_TAG } from './resend-paths';
import { resendPageQuery } from './resend-page';
import { resendSendInput } from './resend-send-body';
import { validateAs } from './resend-validate';
import { ResendBatch, ResendEmail, ResendEmailList, ResendId, ResendObjectId } from './resend.responses';

/** JSON carries attachments as base64 (4/3 of their size) plus the bodies and some structure: /v1's bound. */
function sendBodyLimit(emailMaxSizeBytes: number): number {
  return Math.ceil((emailMaxSizeBytes * 4) / 3) + 256 * 1024;
}

/**
 * A Resend batch, each message translated and validated as a single send is, every
 * message's problems in one answer, named by position (`[3].reply_to`) as /v1's batch names them.
 */
function resendBatchInputs(json: unknown): SendEmailInput[] {
  if (!Array.isArray(json) || json.length === 0 || json.length > MAX_BATCH) {
    throw validationFailure([{ field: '(body)', message: `must be an array of 1 to ${MAX_BATCH} emails` }]);
  }
  const issues: FieldIssue[] = [];
  const inputs = json.map((message: unknown, i): SendEmailInput | undefined => {
    try {
      return resendSendInput(message);
    } catch (err) {
      if (!isAppError(err) || err.code !== 'VALIDATION_ERROR') throw err;
      const fields = (err.details?.fields ?? []) as readonly FieldIssue[];
      issues.push(...fields.map((f) => ({ field: `[${i}].${f.field}`, message: f.message })));
      return undefined;
    }
  });
  if (issues.length > 0) throw validationFailure(issues);
  return inputs.filter((input) => input !== undefined);
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

/** `/emails` as Resend's SDKs call it (issue 20): the one send path, Resend's shapes. */
export function resendEmailRoutes(deps: SendRouteDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/emails', RESEND_TAG);
  const bodyLimit = sendBodyLimit(deps.config.emailMaxSizeBytes);

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'either',
      authInHandler: true,
      sendingKey: true,
      errorShape: 'resend',
      operationId: 'resendSendEmail',
      summary: 'Resend: send an email (queued as POST /v1/emails queues it)',
      body: resendSendSchema,
      ok: { status: 200, schema: ResendId, description: 'Queued: the email id' },
      errors: [...SEND_ERRORS, 'NOT_IMPLEMENTED'],
      requestHeaders: { 'Idempotency-Key': 'As on POST /v1/emails' },
    },
    async (ctx) => {
      const body = await readSendJson(deps, ctx, bodyLimit);
      const input = resendSendInput(body.json);
      const auth = body.auth ?? (await resolveAuth(deps, ctx));
      const result = await sendEmail({ ...sendDeps(deps, ctx, auth, body.raw), input });
      answerSend(ctx, result, result.queued?.[0]);
      // Resend answers 200 `{id}` where /v1 answers 202 `{id, status, createdAt}`.
      ctx.status = 200;
      ctx.body = { id: (result.body as { id: string }).id };
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/batch',
      auth: 'either',
      authInHandler: true,
      sendingKey: true,
      errorShape: 'resend',
      operationId: 'resendSendBatch',
      summary: `Resend: send up to ${MAX_BATCH} emails, all queued or none (POST /v1/emails/batch)`,
      body: z.array(resendSendSchema).min(1).max(MAX_BATCH),
      ok: { status: 200, schema: ResendBatch, description: 'Queued, in the order given' },
      errors: [...SEND_ERRORS, 'NOT_IMPLEMENTED'],
      requestHeaders: {
        'Idempotency-Key': 'As on POST /v1/emails/batch',
        'x-batch-validation': '`strict` (the default): one invalid email refuses the batch',
      },
    },
    async (ctx) => {
      // Resend's permissive mode sends the valid emails of a batch; Mailroom's batch is one transaction.
      if ((ctx.get('x-batch-validation') || 'strict') !== 'strict')
        throw featureNotImplemented(
          'Permissive batch validation (x-batch-validation: permissive) is not supported',
        );
      const body = await readSendJson(deps, ctx, bodyLimit);
      const inputs = resendBatchInputs(body.json);
      const auth = body.auth ?? (await resolveAuth(deps, ctx));
      const result = await sendEmailBatch({ ...sendDeps(deps, ctx, auth, body.raw), inputs });
      const queued = result.queued;
      answerSend(
        ctx,
        result,
        queued && {
          emailIds: queued.map((q) => q.emailId),
          userId: auth.userId,
          recipients: queued.reduce((n, q) => n + q.recipients, 0),
        },
      );
      ctx.status = 200;
      ctx.body = { data: (result.body as { data: { id: string }[] }).data.map(({ id }) => ({ id })) };
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

  routes.define(
    {
      method: 'patch',
      path: '/:id',
      ids: { id: 'email' },
      auth: 'either',
      errorShape: 'resend',
      operationId: 'resendUpdateEmail',
      testKey: true,
      summary: 'Resend: reschedule a scheduled email (PATCH /v1/emails/{id})',
      body: updateBody,
      ok: { status: 200, schema: ResendObjectId, description: 'Rescheduled' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_SCHEDULED', 'FORBIDDEN'],
    },
    async (ctx) => {
      const { userId, mode } = requireAuth(ctx);
      const body = await readBody(ctx, updateBody);
      const input = validateAs(
        rescheduleBody,
        { scheduledAt: body.scheduled_at },
        new Map([['scheduledAt', 'scheduled_at']]),
      );
      const emailId = ctx.params.id ?? '';
      const actor = requestActor(ctx);
      const done = await rescheduleEmail({ db: deps.db, log: deps.log, actor, mode, userId, emailId, input });
      if (done.due) signalWork();
      ctx.body = { object: 'email', id: emailId };
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
      testKey: true,
      summary: 'Resend: cancel a scheduled email',
      ok: { status: 200, schema: ResendObjectId, description: 'Cancelled' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_CANCELLABLE', 'FORBIDDEN'],
    },
    async (ctx) => {
      const { userId, mode } = requireAuth(ctx);
      const emailId = ctx.params.id ?? '';
      const email = await cancelEmail({
        db: deps.db,
        log: deps.log,
        actor: requestActor(ctx),
        mode,
        userId,
        emailId,
      });
      ctx.body = { object: 'email', id: email.id };
    },
  );

  return routes;
}
