import type Koa from 'koa';
import type { Logger } from '../shared/logger';
import type { AppError } from '../shared/app-error';
import { internalError, isAppError, notFound } from '../shared/app-error';

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/**
 * The one place errors become responses: AppErrors render as the spec's shape;
 * anything else is an INTERNAL_ERROR with no stack or message leaked.
 */
export function errorMiddleware(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        render(ctx, notFound(`No route for ${ctx.method} ${ctx.path}`));
      }
    } catch (err) {
      if (isAppError(err)) {
        render(ctx, err);
        return;
      }
      const status = httpStatusOf(err);
      if (status !== undefined && status < 500) {
        // Koa/router/http-errors client errors (405, 413 ...).
        ctx.status = status;
        ctx.body = { error: { code: clientErrorCode(status), message: (err as Error).message } };
        return;
      }
      log.error(
        { event: 'http_unhandled_error', err, method: ctx.method, path: ctx.path },
        'unhandled error',
      );
      render(ctx, internalError());
    }
  };
}

function render(ctx: Koa.Context, err: AppError): void {
  ctx.status = err.status;
  const body: ErrorBody = { error: { code: err.code, message: err.message } };
  if (err.details !== undefined) body.error.details = err.details;
  ctx.body = body;
  if (err.headers) ctx.set(err.headers);
}

function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const s =
    (err as { status?: unknown; statusCode?: unknown }).status ??
    (err as { statusCode?: unknown }).statusCode;
  return typeof s === 'number' ? s : undefined;
}

function clientErrorCode(status: number): string {
  switch (status) {
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    default:
      return 'BAD_REQUEST';
  }
}
