import { AppError, isAppError } from './app-error';

/**
 * An error as data, to cross a thread boundary by structured clone (the writer
 * threads, src/db/writer-thread.ts): an AppError keeps what the HTTP answer needs,
 * anything else its name, message and stack.
 */
export interface WireError {
  readonly app?: {
    readonly code: string;
    readonly status: number;
    readonly details: Record<string, unknown> | undefined;
    readonly headers: Record<string, string> | undefined;
  };
  readonly name: string;
  readonly message: string;
  readonly stack?: string | undefined;
  readonly cause?: WireError | undefined;
}

export function errorToWire(err: unknown, depth = 0): WireError {
  if (!(err instanceof Error) && !isAppError(err)) return { name: 'Error', message: String(err) };
  const e: Error = err;
  const cause = depth < 3 && e.cause !== undefined ? errorToWire(e.cause, depth + 1) : undefined;
  const app = isAppError(err)
    ? { code: err.code, status: err.status, details: err.details, headers: err.headers }
    : undefined;
  return { app, name: e.name, message: e.message, stack: e.stack, cause };
}

export function errorFromWire(w: WireError): Error {
  const cause = w.cause === undefined ? undefined : errorFromWire(w.cause);
  if (w.app) return new AppError({ ...w.app, message: w.message, cause });
  const err = new Error(w.message, cause === undefined ? undefined : { cause });
  err.name = w.name;
  if (w.stack !== undefined) err.stack = w.stack;
  return err;
}
