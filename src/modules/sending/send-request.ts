import type Koa from 'koa';
import { resolveAuth } from '../../http/authenticate';
import { declaresLargeBody, readJson, readRawBody } from '../../http/body';
import type { ApiDeps, AppContext, AuthState } from '../../http/context';
import { isAppError } from '../../shared/app-error';
import { sha256Hex } from '../../shared/secrets';
import { signalWork } from '../../shared/work-signal';
import { emailTooLarge } from '../emails';
import type { QuotaUsage } from '../quota';
import { rateLimitPolicy } from '../quota';
import type { SendCommitter } from './api-send';
import { checkIdempotencyKey } from './idempotency';
import type { SendDeps, SendResult } from './send-email';

/** What the send routes (single and batch) share: reading the body, the request's deps, the answer. */

/** What the send routes receive: every route's deps and where a send's commit step runs. */
export interface SendRouteDeps extends ApiDeps {
  /** The api's writer thread (src/api/api-writer.ts). */
  readonly sendCommitter: SendCommitter;
}

/**
 * Bodies up to this size keep the spec's order (validate, then authenticate); larger ones
 * are authenticated before a byte is read. A send without attachments is far smaller.
 */
const AUTH_FIRST_BYTES = 64 * 1024;

/** JSON carries attachments as base64 (4/3 of their size) plus the bodies and some structure. */
export function sendBodyLimit(emailMaxSizeBytes: number): number {
  return Math.ceil((emailMaxSizeBytes * 4) / 3) + 256 * 1024;
}

/**
 * A send's JSON body and its bytes, read within `limit`; a large body is authenticated first
 * (`ctx.state.auth` is then set).
 */
export async function readSendJson(
  deps: ApiDeps,
  ctx: AppContext,
  limit: number,
): Promise<{ bytes: Buffer; body: unknown }> {
  if (declaresLargeBody(ctx, AUTH_FIRST_BYTES)) await resolveAuth(deps, ctx);
  let raw: Buffer;
  try {
    raw = await readRawBody(ctx, limit);
  } catch (err) {
    if (isAppError(err) && err.code === 'PAYLOAD_TOO_LARGE') {
      throw emailTooLarge(`The request exceeds ${limit} bytes`, { limit: deps.config.emailMaxSizeBytes });
    }
    throw err;
  }
  return { bytes: raw, body: await readJson(ctx, limit, raw) };
}

/** What sendEmail and sendEmailBatch need of the request besides the messages. */
export function sendDeps(deps: SendRouteDeps, ctx: AppContext, auth: AuthState, raw: Buffer): SendDeps {
  const idempotencyKey = checkIdempotencyKey(ctx.get('idempotency-key') || undefined);
  return {
    db: deps.db,
    committer: deps.sendCommitter,
    config: deps.config,
    log: deps.log,
    user: auth.user,
    apiKeyId: auth.keyId,
    mode: auth.mode,
    onlyDomainId: auth.domainId,
    // The body is hashed only when a key asks for replay protection.
    idempotency:
      idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: sha256Hex(raw) },
  };
}

/** The answer to a send or a batch: quota headers, the replay mark, the log event; wakes the worker once. */
export function answerSend(ctx: AppContext, result: SendResult, logFields: object | undefined): void {
  if (result.usage) setQuotaHeaders(ctx, result.usage);
  if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
  if (ctx.state.auth?.mode === 'test') {
    ctx.set(TEST_MODE_HEADER, result.unverifiedDomain === true ? 'unverified-domain' : 'captured');
  }
  if (logFields) ctx.state.accessLog = { event: 'email_queued', msg: 'email queued', fields: logFields };
  if (result.queued?.some((q) => q.scheduledAt === null)) signalWork();
  ctx.status = result.status;
  ctx.body = result.body;
}

/** On every send with a test-mode key (issue 21): what happened instead of delivery. */
const TEST_MODE_HEADER = 'X-Mailroom-Test-Mode';

export const SEND_REQUEST_HEADERS = {
  'Idempotency-Key':
    '1–255 visible ASCII characters: the same key and body within 24 h answers the original 202 and creates nothing',
};

export const SEND_RESPONSE_HEADERS = {
  'X-RateLimit-Limit': 'The account’s hourly allowance (recipients)',
  'X-RateLimit-Remaining': 'What is left of it',
  'X-RateLimit-Limit-Day': 'The daily allowance',
  'X-RateLimit-Remaining-Day': 'What is left of it',
  'RateLimit-Policy':
    'The hourly and daily allowances as draft-ietf-httpapi-ratelimit-headers names them: `"hour";q=N;w=3600, "day";q=N;w=86400`',
  RateLimit: 'What is left of each: `"hour";r=N, "day";r=N` (recipients)',
  'Idempotent-Replayed': '`true` when this is the stored answer to an earlier request with the same key',
  [TEST_MODE_HEADER]:
    'Test-mode keys only: `captured` (the message will end in the capture), or `unverified-domain` (captured too, and sent from a domain that is not verified: a live key would be refused)',
};

/**
 * What the single and the batch send declare alike: any caller (a sending key too),
 * authenticated after validation, the body read within the send limit with its bytes kept for
 * the idempotency hash, the same headers and errors.
 */
export function sendRoute(deps: SendRouteDeps) {
  const limit = sendBodyLimit(deps.config.emailMaxSizeBytes);
  return {
    auth: 'either',
    authInHandler: true,
    sendingKey: true,
    errors: SEND_ERRORS,
    requestHeaders: SEND_REQUEST_HEADERS,
    responseHeaders: SEND_RESPONSE_HEADERS,
    read: (ctx: AppContext) => readSendJson(deps, ctx, limit),
  } as const;
}

/** The errors a send can answer besides validation and auth. */
export const SEND_ERRORS = [
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
  'API_KEY_DOMAIN_RESTRICTED',
];

function setQuotaHeaders(ctx: Koa.Context, usage: QuotaUsage): void {
  ctx.set('X-RateLimit-Limit', String(usage.hour.limit));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, usage.hour.limit - usage.hour.used)));
  ctx.set('X-RateLimit-Limit-Day', String(usage.day.limit));
  ctx.set('X-RateLimit-Remaining-Day', String(Math.max(0, usage.day.limit - usage.day.used)));
  ctx.set(
    'RateLimit-Policy',
    rateLimitPolicy([
      { name: 'hour', quota: usage.hour.limit, windowS: 3600 },
      { name: 'day', quota: usage.day.limit, windowS: 86_400 },
    ]),
  );
  ctx.set(
    'RateLimit',
    `"hour";r=${Math.max(0, usage.hour.limit - usage.hour.used)}, "day";r=${Math.max(0, usage.day.limit - usage.day.used)}`,
  );
}
