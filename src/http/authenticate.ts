import type Koa from 'koa';
import type { ApiKeyPermission, SendMode } from '../db/schema';
import { defineError, forbidden, unauthorized } from '../shared/app-error';
import type { ApiDeps, AppContext, AppState, AuthState } from './context';

/** What a valid API key grants: the principal's fields the key decides. */
export interface KeyGrant {
  readonly userId: string;
  readonly keyId: string;
  readonly mode: SendMode;
  readonly permission: ApiKeyPermission;
  readonly domainId: string | null;
}

/**
 * The API-key kind of bearer token, which the accounts module's `Authenticator` (context.ts) asks
 * about: the api-keys module implements it (`apiKeyCredentials`), src/api/app.ts passes it.
 */
export interface ApiKeyCredentials {
  /** The token has an API key's shape (`re_live_…`, `re_test_…`). */
  recognises(token: string): boolean;
  /** The grant of the unrevoked key this token is, or undefined when there is none. */
  verify(token: string): Promise<KeyGrant | undefined>;
}

export const restrictedApiKey = defineError(
  'RESTRICTED_API_KEY',
  403,
  'This API key has sending access only: it can send email and nothing else',
);

/** `Authorization: Bearer <token>`; anything else is UNAUTHORIZED. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/** Authenticates the request and keeps the principal in `ctx.state.auth` for the route. */
export async function resolveAuth(deps: Pick<ApiDeps, 'authenticator'>, ctx: AppContext): Promise<AuthState> {
  const auth = await deps.authenticator.authenticate(ctx);
  ctx.state.auth = auth;
  return auth;
}

/**
 * Resolves the caller to an account on every request: API key (`re_live_…`, `re_test_…`) or
 * session JWT. The account row is read each time, so suspension and revocation
 * take effect on the very next request.
 */
export function authenticate(deps: Pick<ApiDeps, 'authenticator'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    await resolveAuth(deps, ctx);
    await next();
  };
}

/**
 * Every `either` route but the sends (issue 20): a `sending_access` key may only send.
 * Runs after authentication.
 */
export function requireFullAccess(ctx: AppContext, next: Koa.Next): Promise<void> {
  if (ctx.state.auth?.permission === 'sending_access') throw restrictedApiKey();
  return next();
}

/**
 * For dashboard-only actions (API key management, sign-out): an API key, whatever its
 * permission or mode, is authenticated but not allowed. `refusal` names the rule.
 */
export function requireSession(ctx: AppContext, refusal?: string): string {
  const auth = ctx.state.auth;
  if (!auth) throw unauthorized();
  if (auth.kind !== 'session')
    throw forbidden(refusal ?? 'This action needs a session token, not an API key');
  return auth.userId;
}
