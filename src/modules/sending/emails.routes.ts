import { validate, validationFailure } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requireAuth } from '../../http/context';
import type { Handler } from '../../http/route';
import { RouteGroup } from '../../http/route';
import { pageBody } from '../../shared/cursor';
import { canonicalAddress } from '../emails/address';
import { getEmailView, listEmailViews } from '../emails/emails.usecases';
import { cancelEmail } from './cancel-email';
import { listEmailsQuery, oversizedCollections, sendEmailBody } from './emails.schemas';
import { acceptSendRequest, sendBodyLimit } from './send-request';

/** `/v1/emails`: send, list, retrieve, cancel. */
export function emailRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/emails', 'Emails');
  const bodyLimit = sendBodyLimit(deps.config);

  const send: Handler = async (ctx) => {
    const result = await acceptSendRequest(deps, ctx, bodyLimit, (json) => {
      const oversized = oversizedCollections(json);
      if (oversized.length > 0) throw validationFailure(oversized);
      return validate(sendEmailBody, json);
    });
    ctx.status = result.status;
    ctx.body = result.body;
  };
  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'either',
      authInHandler: true,
      operationId: 'sendEmail',
      summary: 'Queue a message (202 once durably queued; not delivered)',
      body: sendEmailBody,
      ok: { status: 202, schema: 'SendAccepted', description: 'Queued' },
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
      ],
      requestHeaders: {
        'Idempotency-Key':
          '1–255 visible ASCII characters: the same key and body within 24 h answers the original 202 and creates nothing',
      },
      responseHeaders: {
        'X-RateLimit-Limit': 'The account’s hourly allowance (recipients)',
        'X-RateLimit-Remaining': 'What is left of it',
        'X-RateLimit-Limit-Day': 'The daily allowance',
        'X-RateLimit-Remaining-Day': 'What is left of it',
        'Idempotent-Replayed':
          '`true` when this is the stored answer to an earlier request with the same key',
      },
    },
    send,
  );

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listEmails',
      summary: 'List messages, newest first (keyset pages)',
      query: listEmailsQuery,
      ok: { status: 200, schema: 'EmailPage', description: 'A page of messages (no events)' },
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
      ids: { id: 'email' },
      auth: 'either',
      operationId: 'getEmail',
      summary: 'One message with recipients and events',
      ok: { status: 200, schema: 'Email', description: 'The message' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await getEmailView({ db: deps.db, userId, emailId: ctx.params.id ?? '' });
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/:id/cancel',
      ids: { id: 'email' },
      auth: 'either',
      operationId: 'cancelEmail',
      summary: 'Cancel a message still queued (typically scheduled)',
      ok: { status: 200, schema: 'Email', description: 'The cancelled message' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_CANCELLABLE'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await cancelEmail({ db: deps.db, log: deps.log, userId, emailId: ctx.params.id ?? '' });
    },
  );

  return routes;
}
