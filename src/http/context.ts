import type Koa from 'koa';
import type { AppConfig } from '../config';
import type { Db } from '../db/connect';
import type { ApiKeyPermission, SendMode } from '../db/schema';
import type { UserRow } from '../modules/accounts/accounts.repository';
import type { SessionSigner } from '../modules/accounts/sessions';
import type { Actor } from '../modules/audit/audit.repository';
import type { SendCommitter } from '../modules/sending/api-send';
import { forbidden, unauthorized } from '../shared/app-error';
import type { Logger } from '../shared/logger';

export interface AuthState {
  readonly userId: string;
  readonly kind: 'session' | 'api_key';
  /** The API key used, when kind is api_key. */
  readonly keyId: string | null;
  /** The key's mode (issue 21): `test` mail is captured. Sessions send nothing, so `live`. */
  readonly mode: SendMode;
  /** The account row read for this request (status checked), for handlers that need more of it. */
  readonly user: UserRow;
  /** A session has full access; an API key has its own (issue 20). */
  readonly permission: ApiKeyPermission;
  /** A sending key held to one domain: the only one it may send from. */
  readonly domainId: string | null;
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

/** What route factories receive: built once per process in src/api/main.ts. */
export interface ApiDeps {
  readonly db: Db;
  /** Where POST /v1/emails runs its commit step: the api's writer thread (api-writer.ts). */
  readonly sendCommitter: SendCommitter;
  readonly config: AppConfig;
  readonly log: Logger;
  readonly sessions: SessionSigner;
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

export function requestActor(ctx: Koa.Context | AppContext): Actor {
  const auth = (ctx.state as AppState).auth;
  return {
    type: auth ? (auth.kind === 'api_key' ? 'api_key' : 'user') : 'anonymous',
    id: auth ? (auth.keyId ?? auth.userId) : null,
    ip: ctx.ip || null,
    userAgent: requestUserAgent(ctx),
  };
}

export function operatorActor(ctx: Koa.Context): Actor {
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
export function sessionOperatorActor(ctx: AppContext): Actor {
  return {
    type: 'operator',
    id: requireOperator(ctx),
    ip: ctx.ip || null,
    userAgent: requestUserAgent(ctx),
  };
}
