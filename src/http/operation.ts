import type { RouterContext } from '@koa/router';
import type { z } from 'zod';
import type { FieldIssue } from '../shared/app-error';
import { isAppError, validationError } from '../shared/app-error';
import { resolveAuth } from './authenticate';
import { readJson } from './body';
import type { AppState } from './context';
import type { RouteDoc, RouteGroup, RouteSpec } from './route';

/**
 * One API operation declared once (issue 30 item 2), in the steps another surface can
 * translate: the request as read, its validation into the use case's input, the use case,
 * and the answer. `serveOperation` registers it on a route group as declared (`/v1`);
 * `serveTranslation` registers it under another surface's path and shapes (the Resend
 * surface, src/compat) with the same auth, role, body limit, validation and use case.
 */

/** A request as an operation reads it, before validation. */
export interface OperationRequest<Q = unknown> {
  /** The JSON body (`{}` when empty); undefined when the operation declares no body. */
  readonly body: unknown;
  /** The body's bytes, when `read` keeps them (the sends hash them for idempotency). */
  readonly bytes?: Buffer | undefined;
  /** The query string as the route's `query` schema parsed it. */
  readonly query: Q;
  readonly params: Readonly<Record<string, string | undefined>>;
}

export type OperationContext = RouterContext<AppState>;

/** What an operation adds to its route's declaration. */
export interface OperationSteps<Q, I, O> {
  /**
   * Reads the body within the operation's bound (the sends: their size limit, and
   * authenticating first when it is large). Default: JSON within 1 MiB when a `body` is declared.
   */
  readonly read?: (ctx: OperationContext) => Promise<{ readonly body: unknown; readonly bytes?: Buffer }>;
  /** The request as the use case's input: the validation, by the declared schemas. */
  readonly parse: (request: OperationRequest<Q>) => I;
  /** The use case, given an authenticated request. */
  readonly run: (ctx: OperationContext, input: I) => Promise<O>;
  /** The operation's own answer: status, body, headers, log event. Default: `ok.status`, the result as the body. */
  readonly answer?: (ctx: OperationContext, output: O) => void;
}

export type OperationDecl<Q = unknown, I = unknown, O = unknown> = RouteSpec &
  OperationSteps<Q, I, O> & { readonly query?: z.ZodObject };

/** Declares an operation (a typed identity: the declaration is plain data and functions). */
export function defineOperation<Q extends z.ZodObject | undefined, I, O>(
  decl: RouteSpec & { readonly query?: Q } & OperationSteps<
      Q extends z.ZodObject ? z.output<Q> : Record<string, never>,
      I,
      O
    >,
): OperationDecl<Q extends z.ZodObject ? z.output<Q> : Record<string, never>, I, O> {
  return decl;
}

/**
 * Another surface's face of an operation: its path and documentation, a request mapper
 * (that surface's body, query and params as the operation's, before the operation validates
 * them), a response mapper (the operation's result as that surface's body), and the
 * field names its callers use, so the operation's validation errors name what they wrote.
 * Auth, role, ids, body limit, validation and use case are the operation's.
 */
export interface Translation<Q, O, TQ = Q> extends Omit<
  RouteDoc,
  'sendingKey' | 'testKey' | 'rawBody' | 'anyQuery'
> {
  readonly method: RouteSpec['method'];
  readonly path: string;
  /** Path parameters that are ids, by this path's names; the operation's when not given. */
  readonly ids?: Readonly<Record<string, string>>;
  /** This surface's query parameters; the operation's when not given. */
  readonly query?: z.ZodObject & z.ZodType<TQ>;
  /**
   * Runs before the body is read: a refusal that depends on headers only (the Resend batch's
   * `x-batch-validation`).
   */
  readonly precheck?: (ctx: OperationContext) => void;
  /** This surface's request as the operation's, unvalidated: renames, refusals of what this surface lacks. */
  readonly request?: (request: OperationRequest<TQ>) => OperationRequest<Q>;
  /** Field names of the operation (`replyTo`) as this surface's callers write them (`reply_to`). */
  readonly names?: ReadonlyMap<string, string>;
  /**
   * The operation's result as this surface's body, answered with `ok.status`; given this
   * surface's request as read (a page of a list read whole needs its `limit` and `after`).
   */
  readonly response: (output: O, request: OperationRequest<TQ>, ctx: OperationContext) => unknown;
}

/** A typed identity, as `defineOperation`: the translation's types follow its operation's. */
export function defineTranslation<Q, I, O, TQ = Q>(
  _operation: OperationDecl<Q, I, O>,
  translation: Translation<Q, O, TQ>,
): Translation<Q, O, TQ> {
  return translation;
}

/**
 * Renames each dot-separated part of the issues' fields, and the first word of their messages,
 * from the operation's names to the caller's (`replyTo.0` → `reply_to.0`, `url` → `endpoint`).
 */
export function renameFields(
  issues: readonly FieldIssue[],
  names: ReadonlyMap<string, string>,
): FieldIssue[] {
  return issues.map((issue) => ({
    field: issue.field
      .split('.')
      .map((part) => names.get(part) ?? part)
      .join('.'),
    message: issue.message.replace(/^\S+/, (word) => names.get(word) ?? word),
  }));
}

/** The operation's parse, its VALIDATION_ERROR naming fields as the translation's callers wrote them. */
export function parseAs<Q, I>(
  parse: (request: OperationRequest<Q>) => I,
  request: OperationRequest<Q>,
  names: ReadonlyMap<string, string> | undefined,
): I {
  if (names === undefined) return parse(request);
  try {
    return parse(request);
  } catch (err) {
    if (!isAppError(err) || err.code !== 'VALIDATION_ERROR') throw err;
    const details = err.details ?? {};
    const fields = renameFields((details.fields ?? []) as readonly FieldIssue[], names);
    const first = fields[0];
    throw validationError(first ? `${first.field}: ${first.message}` : err.message, { ...details, fields });
  }
}

/** Registers an operation as it is declared (`/v1`): read, parse, authenticate if in-handler, run, answer. */
export function serveOperation<Q, I, O>(routes: RouteGroup, op: OperationDecl<Q, I, O>): void {
  const { read: _read, parse: _parse, run: _run, answer: _answer, ...spec } = op;
  routes.define(spec, async (ctx, query) => {
    answer(op, ctx, await perform(routes, op, ctx, await readRequest(op, ctx, query as Q), undefined));
  });
}

/**
 * Registers an operation under another surface's path and shapes (issue 30 item 2): the
 * operation's auth, role, ids, body limit, validation and use case, run once; the translation
 * maps the request before the operation validates it and the result after the operation
 * answered (its headers and log event stay; the status and body are the translation's).
 */
export function serveTranslation<Q, I, O, TQ = Q>(
  routes: RouteGroup,
  op: OperationDecl<Q, I, O>,
  translation: Translation<Q, O, TQ>,
): void {
  const { method, path, ids, query, precheck, request, names, response, ...doc } = translation;
  const { auth, authInHandler, before, apiKeyRefusal, sendingKey, testKey } = op;
  const spec: RouteSpec = {
    ...doc,
    method,
    path,
    auth,
    ...(authInHandler ? { authInHandler } : {}),
    ...(before ? { before } : {}),
    ...(apiKeyRefusal === undefined ? {} : { apiKeyRefusal }),
    ...(sendingKey ? { sendingKey } : {}),
    ...(testKey ? { testKey } : {}),
    ...((ids ?? op.ids) ? { ids: ids ?? op.ids } : {}),
    ...((query ?? op.query) ? { query: query ?? op.query } : {}),
    ...(op.body && !doc.body ? { body: op.body } : {}),
    errors: [...(op.errors ?? []), ...(doc.errors ?? []).filter((e) => !op.errors?.includes(e))],
  };
  routes.define(spec, async (ctx, parsedQuery) => {
    precheck?.(ctx);
    const read = await readRequest(op, ctx, parsedQuery as TQ);
    const output = await perform(
      routes,
      op,
      ctx,
      request ? request(read) : (read as OperationRequest<never>),
      names,
    );
    answer(op, ctx, output);
    ctx.status = doc.ok.status;
    ctx.body = await response(output, read, ctx);
  });
}

function answer<O>(
  op: Pick<OperationDecl<never, never, O>, 'answer' | 'ok'>,
  ctx: OperationContext,
  output: O,
): void {
  if (op.answer) {
    op.answer(ctx, output);
    return;
  }
  ctx.status = op.ok.status;
  ctx.body = output;
}

async function perform<Q, I, O>(
  routes: RouteGroup,
  op: OperationDecl<Q, I, O>,
  ctx: OperationContext,
  request: OperationRequest<Q>,
  names: ReadonlyMap<string, string> | undefined,
): Promise<O> {
  const input = parseAs(op.parse, request, names);
  // The sends validate before they authenticate (the spec's pipeline).
  if (op.authInHandler && ctx.state.auth === undefined) await resolveAuth(routes.deps, ctx);
  return op.run(ctx, input);
}

/** The request as the operation reads it: its body within its bound, the parsed query, the params. */
async function readRequest<Q>(
  op: Pick<OperationDecl, 'read' | 'body'>,
  ctx: OperationContext,
  query: Q,
): Promise<OperationRequest<Q>> {
  const params = ctx.params as Readonly<Record<string, string | undefined>>;
  if (op.read) {
    const { body, bytes } = await op.read(ctx);
    return { body, bytes, query, params };
  }
  return { body: op.body ? await readJson(ctx) : undefined, query, params };
}
