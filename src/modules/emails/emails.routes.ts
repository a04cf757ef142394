import Router from '@koa/router';
import type Koa from 'koa';
import { authenticate, resolveAuth } from '../../http/authenticate';
import { declaresLargeBody, readJson, readRawBody, validate, validationFailure } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requireAuth } from '../../http/context';
import { isAppError, validationError } from '../../shared/app-error';
import { sha256Hex } from '../../shared/secrets';
import { canonicalAddress } from './address';
import { cancelEmail, getEmailView, listEmailViews } from './emails.usecases';
import { emailTooLarge } from './emails.errors';
import { listEmailsQuery, oversizedCollections, sendEmailBody } from './emails.schemas';
import { checkIdempotencyKey } from './idempotency';
import type { QuotaUsage } from './quota';
import { sendEmail } from './send-email';

/**
 * Bodies up to this size keep the spec's order (validate, then authenticate); larger ones
 * are authenticated before a byte is read. A send without attachments is far smaller.
 */
const AUTH_FIRST_BYTES = 64 * 1024;

function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown };
    if (typeof parsed.id === 'string' && /^email_[0-9a-z]{26}$/.test(parsed.id)) return parsed.id;
  } catch {
    /* fall through */
  }
  throw validationError('cursor is not a cursor this API returned', { field: 'cursor' });
}

function setQuotaHeaders(ctx: Koa.Context, usage: QuotaUsage): void {
  ctx.set('X-RateLimit-Limit', String(usage.hour.limit));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, usage.hour.limit - usage.hour.used)));
  ctx.set('X-RateLimit-Limit-Day', String(usage.day.limit));
  ctx.set('X-RateLimit-Remaining-Day', String(Math.max(0, usage.day.limit - usage.day.used)));
}

/** `/v1/emails`: send, list, retrieve, cancel. */
export function emailRoutes(deps: ApiDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/emails' });
  // JSON carries attachments as base64 (4/3 of their size) plus the bodies and some structure.
  const bodyLimit = Math.ceil((deps.config.emailMaxSizeBytes * 4) / 3) + 256 * 1024;

  // The spec's pipeline validates the body before authenticating, so this route authenticates
  // itself. A body over AUTH_FIRST_BYTES (or of undeclared length) is authenticated first: an
  // anonymous caller must not make the service read and validate megabytes (issue 17 finding 5).
  router.post('/', async (ctx) => {
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
      writes: deps.writes,
      committer: deps.sendWriter,
      config: deps.config,
      log: deps.log,
      user: auth.user,
      apiKeyId: auth.keyId,
      input,
      // The body is hashed only when a key asks for replay protection.
      idempotency:
        idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: sha256Hex(raw) },
    });
    if (result.usage) setQuotaHeaders(ctx, result.usage);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (result.queued)
      ctx.state.accessLog = { event: 'email_queued', msg: 'email queued', fields: result.queued };
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/', authenticate(deps), async (ctx) => {
    const { userId } = requireAuth(ctx);
    const q = validate(listEmailsQuery, ctx.query);
    const page = await listEmailViews({
      db: deps.db,
      userId,
      query: {
        userId,
        status: q.status,
        domainId: q.domainId,
        recipient: q.recipient === undefined ? undefined : canonicalAddress(q.recipient.trim()),
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

  router.get('/:id', authenticate(deps), async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await getEmailView({ db: deps.db, userId, emailId: ctx.params.id ?? '' });
  });

  router.post('/:id/cancel', authenticate(deps), async (ctx) => {
    const { userId } = requireAuth(ctx);
    ctx.body = await cancelEmail({ db: deps.db, log: deps.log, userId, emailId: ctx.params.id ?? '' });
  });

  return router;
}
