import type Koa from 'koa';
import { resolveAuth } from '../../http/authenticate';
import { declaresLargeBody, readJson, readRawBody, validate, validationFailure } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requireAuth } from '../../http/context';
import type { Handler } from '../../http/route';
import { RouteGroup } from '../../http/route';
import { isAppError } from '../../shared/app-error';
import { pageBody } from '../../shared/cursor';
import { sha256Hex } from '../../shared/secrets';
import { canonicalAddress } from '../emails/address';
import {
  accountEmailWithRecipients,
  emailPart,
  getCapturedRaw,
  getEmailView,
  listEmailViews,
} from '../emails/emails.usecases';
import { messageBytes } from '../delivery/message-bytes';
import { previewHeaders, previewQuery } from '../../shared/message-preview';
import { cancelEmail } from './cancel-email';
import { deliveryView } from '../delivery/delivery-explanation';
import { findPendingSend } from '../delivery/pending-send.repository';
import { emailTooLarge } from '../emails/emails.errors';
import { listEmailsQuery, oversizedCollections, sendEmailBody } from './emails.schemas';
import { checkIdempotencyKey } from './idempotency';
import type { QuotaUsage } from '../quota/quota';
import { signalWork } from '../../shared/work-signal';
import { sendEmail } from './send-email';
import { EmailDetail, SendAccepted } from '../sending/sending.responses';
import { EmailPage, EmailView } from '../emails/emails.responses';

/**
 * Bodies up to this size keep the spec's order (validate, then authenticate); larger ones
 * are authenticated before a byte is read. A send without attachments is far smaller.
 */
const AUTH_FIRST_BYTES = 64 * 1024;

/** On every send with a test-mode key (issue 21): what happened instead of delivery. */
const TEST_MODE_HEADER = 'X-Mailroom-Test-Mode';

function setQuotaHeaders(ctx: Koa.Context, usage: QuotaUsage): void {
  ctx.set('X-RateLimit-Limit', String(usage.hour.limit));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, usage.hour.limit - usage.hour.used)));
  ctx.set('X-RateLimit-Limit-Day', String(usage.day.limit));
  ctx.set('X-RateLimit-Remaining-Day', String(Math.max(0, usage.day.limit - usage.day.used)));
}

/** `/v1/emails`: send, list, retrieve, cancel. */
export function emailRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/emails', 'Emails');
  // JSON carries attachments as base64 (4/3 of their size) plus the bodies and some structure.
  const bodyLimit = Math.ceil((deps.config.emailMaxSizeBytes * 4) / 3) + 256 * 1024;

  // The spec's pipeline validates the body before authenticating, so this route authenticates
  // itself. A body over AUTH_FIRST_BYTES (or of undeclared length) is authenticated first: an
  // anonymous caller must not make the service read and validate megabytes (issue 17 finding 5).
  const send: Handler = async (ctx) => {
    let auth = declaresLargeBody(ctx, AUTH_FIRST_BYTES) ? await resolveAuth(deps, ctx) : undefined;
    let raw: Buffer;
    try {
      raw = await readRawBody(ctx, bodyLimit);
    } catch (err) {
      if (isAppError(err) && err.code === 'PAYLOAD_TOO_LARGE') {
        throw emailTooLarge(`The request exceeds ${bodyLimit} bytes`, {
          limit: deps.config.emailMaxSizeBytes,
        });
      }
      throw err;
    }
    const json = await readJson(ctx, bodyLimit, raw);
    const oversized = oversizedCollections(json);
    if (oversized.length > 0) throw validationFailure(oversized);
    const input = validate(sendEmailBody, json);
    auth ??= await resolveAuth(deps, ctx);
    const idempotencyKey = checkIdempotencyKey(ctx.get('idempotency-key') || undefined);
    const result = await sendEmail({
      db: deps.db,
      committer: deps.sendCommitter,
      config: deps.config,
      log: deps.log,
      user: auth.user,
      apiKeyId: auth.keyId,
      mode: auth.mode,
      input,
      // The body is hashed only when a key asks for replay protection.
      idempotency:
        idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: sha256Hex(raw) },
    });
    if (result.usage) setQuotaHeaders(ctx, result.usage);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (auth.mode === 'test') {
      ctx.set(TEST_MODE_HEADER, result.unverifiedDomain === true ? 'unverified-domain' : 'captured');
    }
    if (result.queued)
      ctx.state.accessLog = { event: 'email_queued', msg: 'email queued', fields: result.queued };
    if (result.queued?.scheduledAt === null) signalWork();
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
      ok: { status: 202, schema: SendAccepted, description: 'Queued' },
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
        [TEST_MODE_HEADER]:
          'Test-mode keys only: `captured` (the message will end in the capture), or `unverified-domain` (captured too, and sent from a domain that is not verified: a live key would be refused)',
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
      summary:
        'List messages, newest first (keyset pages); filters: status, domainId, tag, recipient, from/to, q',
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
      summary: 'One message with recipients, events and its delivery state (why it is still queued)',
      ok: { status: 200, schema: EmailDetail, description: 'The message' },
      errors: ['EMAIL_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const view = await getEmailView({ db: deps.db, userId, emailId: ctx.params.id ?? '' });
      const pending = await findPendingSend(deps.db, view.id);
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
      ctx.body = body;
    },
  );

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
          : await messageBytes({ db: deps.db, baseUrl: deps.config.baseUrl, email, recipients });
      ctx.set('Content-Disposition', `attachment; filename="${id}.eml"`);
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.type = 'message/rfc822';
      ctx.body = raw;
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
      ok: { status: 200, schema: EmailView, description: 'The cancelled message' },
      errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_CANCELLABLE'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await cancelEmail({ db: deps.db, log: deps.log, userId, emailId: ctx.params.id ?? '' });
    },
  );

  return routes;
}
