import { z } from 'zod';
import { validationFailure, zodFieldIssues } from '../../http/body';
import { requireAuth } from '../../http/context';
import { defineOperation } from '../../http/operation';
import type { FieldIssue } from '../../shared/app-error';
import { answerSend, sendRoute, sendDeps } from './send-request';
import type { SendEmailInput } from './emails.schemas';
import { oversizedCollections, sendEmailBody } from './emails.schemas';
import { sendEmailBatch } from './send-email';
import type { SendRouteDeps } from './send-request';
import { BatchAccepted } from './sending.responses';

/** Messages a batch may hold (issue 20: Resend's batch limit). */
export const MAX_BATCH = 100;

export const sendBatchBody = z.array(sendEmailBody).min(1).max(MAX_BATCH);

/**
 * Each message validated as a single send would be, its issues named by position
 * (`[3].to`), so a client sees every message's problems in one answer.
 */
export function validateBatch(json: unknown): SendEmailInput[] {
  if (!Array.isArray(json) || json.length === 0 || json.length > MAX_BATCH) {
    throw validationFailure([{ field: '(body)', message: `must be an array of 1 to ${MAX_BATCH} messages` }]);
  }
  const issues: FieldIssue[] = [];
  const inputs: SendEmailInput[] = [];
  json.forEach((message: unknown, i) => {
    const oversized = oversizedCollections(message);
    if (oversized.length > 0) {
      issues.push(...oversized.map((o) => ({ field: `[${i}].${o.field}`, message: o.message })));
      return;
    }
    const result = sendEmailBody.safeParse(message);
    if (result.success) inputs.push(result.data);
    else
      issues.push(
        ...zodFieldIssues(result.error.issues).map((issue) => ({
          field: issue.field === '(body)' ? `[${i}]` : `[${i}].${issue.field}`,
          message: issue.message,
        })),
      );
  });
  if (issues.length > 0) throw validationFailure(issues);
  return inputs;
}

/** `POST /v1/emails/batch`: up to MAX_BATCH messages, queued together or not at all. */
export function sendBatchOperation(deps: SendRouteDeps) {
  return defineOperation({
    // The whole batch within one send's request limit: the same bound on what is read.
    ...sendRoute(deps),
    method: 'post',
    path: '/batch',
    operationId: 'sendEmailBatch',
    summary: `Queue up to ${MAX_BATCH} messages in one transaction: all are queued or none`,
    body: sendBatchBody,
    ok: { status: 202, schema: BatchAccepted, description: 'Queued, in the order given' },
    parse: ({ body, bytes }) => ({ inputs: validateBatch(body), bytes: bytes ?? Buffer.alloc(0) }),
    run: (ctx, { inputs, bytes }) =>
      sendEmailBatch({ ...sendDeps(deps, ctx, requireAuth(ctx), bytes), inputs }),
    answer: (ctx, result) => {
      const queued = result.queued;
      answerSend(
        ctx,
        result,
        queued && {
          emailIds: queued.map((q) => q.emailId),
          userId: requireAuth(ctx).userId,
          recipients: queued.reduce((n, q) => n + q.recipients, 0),
        },
      );
    },
  });
}
