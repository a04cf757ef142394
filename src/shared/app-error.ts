/**
 * The one error type. HTTP renders it as `{error:{code,message,details}}`.
 * Recognised by its brand, not `instanceof`: Haraka loads plugins in another
 * realm, and a class identity check would fail across it.
 */
const BRAND = Symbol.for('mailroom.app-error');

export interface AppErrorInit {
  readonly code: string;
  readonly status: number;
  readonly message: string;
  readonly details?: Record<string, unknown> | undefined;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers?: Record<string, string> | undefined;
  readonly cause?: unknown;
}

export class AppError extends Error {
  readonly [BRAND] = true;
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(init: AppErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'AppError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.headers = init.headers;
  }
}

export function isAppError(err: unknown): err is AppError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}

const STATUS_BY_CODE = new Map<string, number>();

/**
 * The HTTP status every declared code is raised with, as `defineError` recorded it:
 * the OpenAPI document reads it, so no second table of codes can drift (issue 18 item 5).
 */
export function errorStatus(code: string): number | undefined {
  return STATUS_BY_CODE.get(code);
}

/** Declares an error factory: `export const notFound = defineError('X_NOT_FOUND', 404, 'No such x')`. */
export function defineError(code: string, status: number, defaultMessage: string) {
  const known = STATUS_BY_CODE.get(code);
  if (known !== undefined && known !== status) {
    throw new Error(`error code ${code} declared with ${status} and ${known}`);
  }
  STATUS_BY_CODE.set(code, status);
  return (
    message: string = defaultMessage,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => new AppError({ code, status, message, details, headers });
}

// Errors shared by every module (spec: Errors).
export const unauthorized = defineError('UNAUTHORIZED', 401, 'Missing or malformed Authorization header');
export const invalidApiKey = defineError('INVALID_API_KEY', 401, 'API key unknown or revoked');
export const invalidCredentials = defineError('INVALID_CREDENTIALS', 401, 'Email or password is wrong');
export const forbidden = defineError('FORBIDDEN', 403, 'Not allowed');
export const accountSuspended = defineError('ACCOUNT_SUSPENDED', 403, 'Account suspended');
/** A cookie-authenticated state change without the matching X-CSRF-Token, or from another origin (issue 19). */
export const csrfFailed = defineError('CSRF_FAILED', 403, 'CSRF check failed');
export const notFound = defineError('NOT_FOUND', 404, 'No such resource');
export const rateLimited = defineError('RATE_LIMIT_EXCEEDED', 429, 'Too many requests');
export const internalError = defineError('INTERNAL_ERROR', 500, 'Internal error');

/** One problem of a request, by where it is: `to.0`, `(body)`, `query.limit`, `header.Idempotency-Key`. */
export interface FieldIssue {
  readonly field: string;
  readonly message: string;
}

const invalidRequest = defineError('VALIDATION_ERROR', 422, 'Request failed validation');

/**
 * A VALIDATION_ERROR. `details.fields` is required: docs/api.md promises it on every one,
 * so a client reads one shape whatever failed (issue 18 item 6); other keys may add to it.
 */
export function validationError(
  message: string,
  details: { readonly fields: readonly FieldIssue[] } & Record<string, unknown>,
): AppError {
  return invalidRequest(message, details);
}
