import type { RouterContext, RouterMiddleware } from '@koa/router';
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { notFound } from '../shared/app-error';
import { refuseLiveEffect } from '../shared/test-mode';
import { authenticate, requireFullAccess, requireSession } from './authenticate';
import { requireJsonContentType, validateQuery } from './body';
import type { ApiDeps, AppContext, AppState } from './context';
import { requireOperator } from './context';
import { requireInternalToken } from './internal-auth';

/**
 * Who may call a route: an API key or a session (`either`), a session only (key
 * management), the session of an account with the operator role (`operator`: the
 * dashboard's operator screens, issue 19), the operator's `X-Internal-Token`
 * (`internal`), or anyone (`none`).
 */
export type Auth = 'either' | 'session' | 'operator' | 'internal' | 'none';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What the OpenAPI document says of a route besides its method, path and auth. */
export interface RouteDoc {
  readonly operationId: string;
  readonly summary: string;
  /** Overrides the group's tag. */
  readonly tag?: string;
  /** The zod schema the route validates its JSON body with. */
  readonly body?: z.ZodType;
  /** A body that is not JSON (image, raw report). */
  readonly rawBody?: { readonly contentType: string; readonly description: string };
  /**
   * The strict zod object `define` validates the query string with, before the handler,
   * which receives the result. Without one the route takes no parameters: any is refused.
   */
  readonly query?: z.ZodObject;
  /**
   * Query parameters are ignored rather than refused: only the public logo, whose URL sits
   * in sent mail where a footer may add a cache-buster (`?v=2`).
   */
  readonly anyQuery?: true;
  readonly ok: {
    readonly status: number;
    readonly description: string;
    /**
     * The zod schema of the body, declared beside its view with `.meta({ id })` (it becomes
     * `components.schemas.<id>`); JSON unless `contentType` says otherwise.
     */
    readonly schema?: z.ZodType;
    readonly contentType?: string;
  };
  /**
   * Path parameters that are ids, by the id's prefix (`{ id: 'email' }`): a value
   * without it names no resource, so the path does not exist (404 NOT_FOUND, issue 18
   * item 6: `GET /v1/emails/metrics`), checked after auth.
   */
  readonly ids?: Readonly<Record<string, string>>;
  /**
   * `resend`: the route's errors are rendered as Resend's `{statusCode, name, message}` (the
   * compatibility surface, src/compat, issue 20), and the document says so.
   */
  readonly errorShape?: 'resend';
  /** Error codes (each declared with `defineError`) raised besides those implied by auth, body and query. */
  readonly errors?: readonly string[];
  /** Request headers the route reads, by name. */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** Headers of the success response, by name. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /**
   * `either` routes a `sending_access` API key may call (the sends, issue 20); every
   * other `either` route answers such a key RESTRICTED_API_KEY.
   */
  readonly sendingKey?: true;
  /**
   * A state-changing `either` route a test-mode key may call, because its effect stays in the
   * sandbox (adding a domain, checking its DNS; cancelling or rescheduling its own test mail,
   * which the use case checks). Every other such route answers a test key
   * FORBIDDEN: test mode never reaches a live effect. The sends (`sendingKey`) are implied.
   */
  readonly testKey?: true;
  /** Non-error responses besides `ok` (304, the 503 of /ready). */
  readonly otherResponses?: Readonly<
    Record<string, { readonly description: string; readonly schema?: z.ZodType }>
  >;
}

export interface RouteSpec extends RouteDoc {
  readonly method: Method;
  /** Router syntax relative to the group's prefix: `/:id/cancel`, `/` for the prefix itself. */
  readonly path: string;
  /** Required, no default: a route is public only when its declaration says `none`. */
  readonly auth: Auth;
  /**
   * `either` routes only: the handler authenticates itself with `resolveAuth` after
   * reading the body (POST /v1/emails: the spec's pipeline validates before it
   * authenticates). A success answered without having authenticated fails closed.
   */
  readonly authInHandler?: true;
  /** Runs before authentication (the per-IP credential budget of the auth routes). */
  readonly before?: Koa.Middleware<AppState>;
  /** `session` routes: the FORBIDDEN message an API key gets, naming the rule it broke. */
  readonly apiKeyRefusal?: string;
}

/** One documented operation, as the OpenAPI document is built from it. */
export interface Operation extends RouteDoc {
  readonly method: Method;
  /** OpenAPI template of the full path: `{name}` for each `:name`. */
  readonly path: string;
  readonly tag: string;
  readonly auth: Auth;
}

/** A route's handler, given its query string as the route's `query` schema parsed it. */
export type Handler<Q = Record<string, never>> = (
  ctx: RouterContext<AppState>,
  query: Q,
) => Promise<void> | void;

/**
 * What a route without a `query` accepts: nothing. One rule for every route (issue 18
 * item 6: some lists refused unknown parameters, others ignored them), so a typo such as
 * `?limt=10` is an error instead of a silently ignored filter.
 */
const NO_QUERY = z.strictObject({});

function sessionOnly(refusal: string | undefined): Koa.Middleware<AppState> {
  return (ctx, next) => {
    requireSession(ctx, refusal);
    return next();
  };
}

/** A state change outside the sandbox: a test-mode key is refused (`refuseLiveEffect`). */
function liveKeyOnly(ctx: AppContext, next: Koa.Next): Promise<void> {
  refuseLiveEffect(ctx.state.auth?.mode ?? 'live');
  return next();
}

function jsonBodyOnly(ctx: AppContext, next: Koa.Next): Promise<void> {
  requireJsonContentType(ctx);
  return next();
}

function operatorOnly(ctx: AppContext, next: Koa.Next): Promise<void> {
  requireOperator(ctx);
  return next();
}

/**
 * A prefix's routes, each registered only through `define` with its auth and its
 * documentation (issue 17 finding 1, issue 18 item 5). Auth is attached to the route
 * itself, never as a prefix `use()`: @koa/router ran prefix middleware by a
 * case-sensitive match while routes matched case-insensitively, so
 * `/INTERNAL/ACCOUNTS/…` reached the handler without the token check. The router is
 * case-sensitive as well, so a case variant of a path is simply not that route.
 */
export class RouteGroup {
  readonly router: Router<AppState>;
  readonly operations: Operation[] = [];

  constructor(
    /** Read by the operations served on the group (operation.ts) to authenticate in-handler. */
    readonly deps: Pick<ApiDeps, 'config' | 'authenticator'>,
    readonly prefix: string,
    readonly tag: string,
  ) {
    // Not `strict`: one trailing slash reaches the same route, with the same auth.
    this.router = new Router<AppState>({ ...(prefix ? { prefix } : {}), sensitive: true });
  }

  define<Q extends z.ZodObject = typeof NO_QUERY>(
    spec: RouteSpec & { readonly query?: Q },
    handler: Handler<z.output<Q>>,
  ): void {
    const { method, path, auth, authInHandler, before, tag, apiKeyRefusal, ...doc } = spec;
    if (apiKeyRefusal !== undefined && auth !== 'session')
      throw new Error(`${spec.operationId}: apiKeyRefusal needs auth 'session'`);
    if (authInHandler && auth !== 'either')
      throw new Error(`${spec.operationId}: authInHandler needs auth 'either'`);
    if (doc.anyQuery && doc.query) throw new Error(`${spec.operationId}: anyQuery and query both set`);
    // A plain z.object would let unknown parameters through, silently breaking the one rule.
    if (doc.query && doc.query.def.catchall?._zod.def.type !== 'never')
      throw new Error(`${spec.operationId}: query must be a z.strictObject`);
    const schema = doc.query ?? NO_QUERY;
    // After auth and the id check: an anonymous caller learns nothing from a 422.
    const withQuery = (ctx: RouterContext<AppState>) =>
      handler(ctx, doc.anyQuery ? ({} as z.output<Q>) : (validateQuery(schema, ctx.query) as z.output<Q>));
    const chain: RouterMiddleware<AppState>[] = [];
    // First: a body that is not declared JSON reaches neither credential checks nor the
    // credential-attempt budget.
    if (doc.body) chain.push(jsonBodyOnly);
    if (before) chain.push(before);
    chain.push(...this.guard(auth, authInHandler === true, apiKeyRefusal));
    if (auth === 'either' && !doc.sendingKey) {
      // authInHandler routes are the sends, which a sending key may call.
      if (authInHandler) throw new Error(`${spec.operationId}: authInHandler routes must be sendingKey`);
      chain.push(requireFullAccess);
    }
    if (auth === 'either' && method !== 'get' && !doc.sendingKey && !doc.testKey) chain.push(liveKeyOnly);
    if (doc.ids) chain.push(idParams(doc.ids));
    chain.push(authInHandler ? authenticatedBy(withQuery) : withQuery);
    this.router.register(path, [method], chain);
    const full = path === '/' ? this.prefix || '/' : `${this.prefix}${path}`;
    this.operations.push({
      ...doc,
      method,
      auth,
      tag: tag ?? this.tag,
      path: full.replace(/:(\w+)/g, '{$1}'),
    });
  }

  private guard(auth: Auth, inHandler: boolean, apiKeyRefusal?: string): Koa.Middleware<AppState>[] {
    if (auth === 'none' || inHandler) return [];
    if (auth === 'internal') return [requireInternalToken(this.deps.config.internalApiToken)];
    const authenticated = authenticate(this.deps);
    if (auth === 'operator') return [authenticated, operatorOnly];
    return auth === 'session' ? [authenticated, sessionOnly(apiKeyRefusal)] : [authenticated];
  }
}

function idParams(ids: Readonly<Record<string, string>>): RouterMiddleware<AppState> {
  const prefixes = Object.entries(ids).map(([name, prefix]) => [name, `${prefix}_`] as const);
  return (ctx, next) => {
    for (const [name, prefix] of prefixes) {
      if (!ctx.params[name]?.startsWith(prefix)) throw notFound(`No route for ${ctx.method} ${ctx.path}`);
    }
    return next();
  };
}

/** The handler must have resolved the caller before answering a success. */
function authenticatedBy(
  handler: (ctx: RouterContext<AppState>) => Promise<void> | void,
): RouterMiddleware<AppState> {
  return async (ctx) => {
    await handler(ctx);
    if (ctx.status < 400 && ctx.state.auth === undefined) {
      // A programming error, logged as an unhandled one: fail closed.
      throw new Error('route answered without authenticating');
    }
  };
}
