import type Koa from 'koa';
import type { Selectable } from 'kysely';
import type { AppConfig } from '../config';
import type { Db } from '../db/connect';
import type { ApiKeyPermission, AuditLogTable, SendMode, UsersTable } from '../db/schema';
import { forbidden, unauthorized } from '../shared/app-error';
import type { Logger } from '../shared/logger';

export interface AuthState {
  readonly userId: string;
  readonly kind: 'session' | 'api_key';
  /** The API key used, when kind is api_key. */
  readonly keyId: string | null;
  /** The key's mode (issue 21): `test` mail is captured. Sessions send nothing, so `live`. */
  readonly mode: SendMode;
  /**
   * The account row read for this request (status checked), for handlers that need more of it
   * (the accounts module's `UserRow`).
   */
  readonly user: Selectable<UsersTable>;
  /** A session has full access; an API key has its own (issue 20). */
  readonly permission: ApiKeyPermission;
  /** A sending key held to one domain: the only one it may send from. */
  readonly domainId: string | null;
}

/**
 * The port the route kit authenticates through (issue 30 item 4): resolves a request's
 * credentials (the bearer token, or the dashboard's session cookie) to the principal the routes
 * see, or throws the refusal (UNAUTHORIZED, INVALID_API_KEY, CSRF_FAILED, ACCOUNT_SUSPENDED).
 * The kit knows no account and no key: the accounts module implements it
 * (`requestAuthenticator`) with the api-keys module's `ApiKeyCredentials` (authenticate.ts),
 * and src/api/app.ts wires the two.
 */
export interface Authenticator {
  authenticate(ctx: AppContext): Promise<AuthState>;
}

/**
 * What a route adds to the request's one access log line (app.ts): the line then
 * carries `event` (a spec log event such as `email_queued`) instead of
 * `http_request`, with these fields next to the request's own.
 */
export interface AccessLogEvent {
  readonly event: string;
  readonly msg: string;
  readonly fields: object;
}

export interface AppState {
  auth?: AuthState;
  accessLog?: AccessLogEvent;
}

export type AppContext = Koa.ParameterizedContext<AppState>;

/**
 * What every route factory receives: built once per process in src/api/app.ts. A module whose
 * routes need more asks for it beside these (the sends' committer, the session signer).
 */
export interface ApiDeps {
  readonly db: Db;
  readonly config: AppConfig;
  readonly log: Logger;
  /** How `either`, `session` and `operator` routes resolve their caller. */
  readonly authenticator: Authenticator;
}

/** Who made a request, as the audit log records it (the audit module's `Actor`). */
export interface RequestActor {
  readonly type: AuditLogTable['actor_type'];
  readonly id: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

export function requireAuth(ctx: AppContext): AuthState {
  const auth = ctx.state.auth;
  if (!auth) throw new Error('route mounted without the authenticate middleware');
  return auth;
}

/** The caller's User-Agent as audited: at most 512 characters, or null when absent. */
export function requestUserAgent(ctx: Koa.Context | AppContext): string | null {
  return ctx.get('user-agent').slice(0, 512) || null;
}

export function requestActor(ctx: Koa.Context | AppContext): RequestActor {
  const auth = (ctx.state as AppState).auth;
  return {
    type: auth ? (auth.kind === 'api_key' ? 'api_key' : 'user') : 'anonymous',
    id: auth ? (auth.keyId ?? auth.userId) : null,
    ip: ctx.ip || null,
    userAgent: requestUserAgent(ctx),
  };
}

export function operatorActor(ctx: Koa.Context): RequestActor {
  return {
    type: 'operator',
    id: 'internal-token',
    ip: ctx.ip || null,
    userAgent: requestUserAgent(ctx),
  };
}

/**
 * The `operator` auth kind (route.ts): a session (never an API key — keys are for servers,
 * and an operator's powers reach every account) of an account whose role is `operator`.
 * The role comes from the account row authentication read for this very request, so a
 * revoked operator loses access on the next request.
 */
export function requireOperator(ctx: AppContext): string {
  const auth = ctx.state.auth;
  if (!auth) throw unauthorized();
  if (auth.kind !== 'session' || auth.user.role !== 'operator')
    throw forbidden('This action needs the session of an account with the operator role');
  return auth.userId;
}

/** An operator action taken through the dashboard: the audit entry names the acting account. */
export function sessionOperatorActor(ctx: AppContext): RequestActor {
  return {
    type: 'operator',
    id: requireOperator(ctx),
    ip: ctx.ip || null,
    userAgent: requestUserAgent(ctx),
  };
}
