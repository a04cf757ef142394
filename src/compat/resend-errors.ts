import type Koa from 'koa';
import type { AppError } from '../shared/app-error';
import { defineError, errorStatus, isAppError, notFound } from '../shared/app-error';
import type { Logger } from '../shared/logger';
import { RESEND_MESSAGE_NAMES } from './resend-names';

/**
 * Resend's error body. The SDKs read these three top-level fields and nothing else: an
 * `{error:{…}}` body reached a Node user as `undefined` and a Python user as "Unknown
 * error" (issue 20).
 */
export interface ResendErrorBody {
  readonly statusCode: number;
  readonly name: string;
  readonly message: string;
}

/** An unsupported Resend feature: answered before any lookup, so it is never a 404 of a parent. */
export const featureNotImplemented = defineError(
  'NOT_IMPLEMENTED',
  501,
  'This Resend feature is not implemented by Mailroom',
);

/**
 * Mailroom's error codes as Resend names them (node_modules/resend RESEND_ERROR_CODE_KEY and
 * https://resend.com/docs/api-reference/errors). The one table: every AppError raised under the
 * compatibility surface is rendered through it, with Mailroom's own message and HTTP status.
 * A code missing here falls back on its status (`fallbackName`).
 */
export const RESEND_ERROR_NAMES: Readonly<Record<string, string>> = {
  VALIDATION_ERROR: 'validation_error',
  UNAUTHORIZED: 'missing_api_key',
  INVALID_API_KEY: 'invalid_api_key',
  FORBIDDEN: 'restricted_api_key',
  RESTRICTED_API_KEY: 'restricted_api_key',
  API_KEY_DOMAIN_RESTRICTED: 'restricted_api_key',
  ACCOUNT_SUSPENDED: 'invalid_access',
  NOT_FOUND: 'not_found',
  EMAIL_NOT_FOUND: 'not_found',
  DOMAIN_NOT_FOUND: 'not_found',
  WEBHOOK_NOT_FOUND: 'not_found',
  API_KEY_NOT_FOUND: 'not_found',
  SUPPRESSION_NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'method_not_allowed',
  INVALID_FROM_ADDRESS: 'invalid_from_address',
  DOMAIN_NOT_VERIFIED: 'validation_error',
  INVALID_RECIPIENT: 'validation_error',
  TOO_MANY_RECIPIENTS: 'validation_error',
  SUPPRESSED_RECIPIENT: 'validation_error',
  INVALID_DOMAIN: 'validation_error',
  DOMAIN_ALREADY_EXISTS: 'validation_error',
  DOMAIN_VERIFIED_ELSEWHERE: 'validation_error',
  DOMAIN_HAS_HISTORY: 'validation_error',
  SUPPRESSION_ALREADY_EXISTS: 'validation_error',
  WEBHOOK_LIMIT_REACHED: 'validation_error',
  EMAIL_NOT_CANCELLABLE: 'validation_error',
  EMAIL_NOT_SCHEDULED: 'validation_error',
  EMAIL_TOO_LARGE: 'validation_error',
  PAYLOAD_TOO_LARGE: 'validation_error',
  UNSUPPORTED_MEDIA_TYPE: 'validation_error',
  IDEMPOTENCY_KEY_REUSED: 'invalid_idempotent_request',
  RATE_LIMIT_EXCEEDED: 'rate_limit_exceeded',
  SENDING_LIMIT_EXCEEDED: 'rate_limit_exceeded',
  EMAIL_QUEUE_FAILED: 'application_error',
  NOT_IMPLEMENTED: 'not_implemented',
  INTERNAL_ERROR: 'internal_server_error',
};

function fallbackName(status: number): string {
  if (status === 401) return 'missing_api_key';
  if (status === 403) return 'restricted_api_key';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'application_error';
  return 'validation_error';
}

/** The Resend name of an AppError: its code through the table, refined where Resend splits one code. */
export function resendErrorName(
  err: Pick<AppError, 'code' | 'status' | 'details'>,
  hasCredentials = false,
): string {
  // One Mailroom code for "no credentials" and "a token of no known kind" (a key in Resend's own
  // format, `re_…`, as a user switching first tries): Resend names the second invalid_api_key.
  if (err.code === 'UNAUTHORIZED' && hasCredentials) return 'invalid_api_key';
  // Resend tells the daily quota from the short-term limit; Mailroom's one code carries the window.
  if (err.code === 'SENDING_LIMIT_EXCEEDED' && err.details?.window === 'day') return 'daily_quota_exceeded';
  if (err.code === 'VALIDATION_ERROR') {
    const fields = err.details?.fields as readonly { field?: unknown }[] | undefined;
    if (fields?.some((f) => f.field === 'header.Idempotency-Key')) return 'invalid_idempotency_key';
  }
  return RESEND_ERROR_NAMES[err.code] ?? fallbackName(err.status);
}

/** Every name a code can be rendered as, for the OpenAPI document. */
export function resendNamesOf(code: string): string[] {
  const status = errorStatus(code) ?? 500;
  const name = RESEND_ERROR_NAMES[code] ?? fallbackName(status);
  if (code === 'SENDING_LIMIT_EXCEEDED') return [name, 'daily_quota_exceeded'];
  if (code === 'VALIDATION_ERROR') return [name, 'invalid_idempotency_key'];
  if (code === 'UNAUTHORIZED') return [name, 'invalid_api_key'];
  return [name];
}

const QUOTED_NAMES = new RegExp(`\\b(?:${[...RESEND_MESSAGE_NAMES.keys()].join('|')})\\b`, 'g');

/** `replyTo[0] is not a valid address` → `reply_to[0] is not …`: the names the caller used. */
export function resendMessage(message: string): string {
  return message.replace(QUOTED_NAMES, (name) => RESEND_MESSAGE_NAMES.get(name) ?? name);
}

function render(ctx: Koa.Context, status: number, name: string, message: string): void {
  const body: ResendErrorBody = { statusCode: status, name, message: resendMessage(message) };
  ctx.status = status;
  ctx.body = body;
}

function routeNotFound(ctx: Koa.Context) {
  return notFound(`No route for ${ctx.method} ${ctx.path}`);
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const s = (err as { status?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof s === 'number' ? s : undefined;
}

/**
 * The compatibility surface's error boundary: inside the app's own error middleware, it
 * renders every failure under a compat path in Resend's shape, and turns a path no route
 * answered into a 501 naming the feature (`unsupported`) or Resend's `not_found`.
 */
export function resendErrorBoundary(options: {
  readonly log: Logger;
  readonly isCompatPath: (ctx: Koa.Context) => boolean;
  /** Resolves an unmatched request to the feature it belongs to, authenticating first; or undefined. */
  readonly unsupported: (ctx: Koa.Context) => Promise<string | undefined>;
}): Koa.Middleware {
  const fail = (ctx: Koa.Context, err: unknown): void => {
    if (isAppError(err)) {
      render(ctx, err.status, resendErrorName(err, ctx.get('authorization') !== ''), err.message);
      if (err.headers) ctx.set(err.headers);
      return;
    }
    const status = statusOf(err);
    if (status !== undefined && status < 500) {
      render(ctx, status, fallbackName(status), (err as Error).message);
      return;
    }
    options.log.error(
      { event: 'http_unhandled_error', err, method: ctx.method, path: ctx.path },
      'unhandled error',
    );
    render(ctx, 500, 'application_error', 'Internal error');
  };
  return async (ctx, next) => {
    if (!options.isCompatPath(ctx)) {
      await next();
      return;
    }
    let failure: unknown;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) failure = routeNotFound(ctx);
    } catch (err) {
      failure = err;
    }
    if (failure === undefined) return;
    // No route, or an id of the wrong kind (`/emails/receiving`): a feature Mailroom lacks is named.
    if (isAppError(failure) && failure.code === 'NOT_FOUND') {
      try {
        const feature = await options.unsupported(ctx);
        if (feature !== undefined)
          failure = featureNotImplemented(`${feature} is not supported by Mailroom's Resend-compatible API`);
      } catch (err) {
        failure = err;
      }
    }
    fail(ctx, failure);
  };
}
