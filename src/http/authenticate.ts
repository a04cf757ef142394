import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { findUserById } from '../modules/accounts/accounts.repository';
import type { SessionCookieNames } from '../modules/accounts/session-cookies';
import { cookiesSecure, sessionCookieNames } from '../modules/accounts/session-cookies';
import { looksLikeJwt } from '../modules/accounts/sessions';
import {
  authenticateApiKey,
  isApiKeyToken,
  keyMode,
  restrictedApiKey,
} from '../modules/api-keys/api-keys.usecases';
import type { ApiKeyPermission, SendMode } from '../db/schema';
import { accountSuspended, csrfFailed, forbidden, invalidApiKey, unauthorized } from '../shared/app-error';
import type { ApiDeps, AppContext, AppState, AuthState } from './context';

/** `Authorization: Bearer <token>`; anything else is UNAUTHORIZED. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A browser sends the session cookie with any request to us, whoever's page made it, so a
 * cookie-authenticated state change must prove it came from our own pages (issue 19): the
 * double-submit token (a cross-site page can neither read the csrf cookie nor set the header) and,
 * when the browser names one, our own Origin. SameSite=Strict is a further layer, not the check.
 */
function checkCsrf(ctx: AppContext, baseOrigin: string, names: SessionCookieNames): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const cookie = ctx.cookies.get(names.csrf) ?? '';
  const header = ctx.get('x-csrf-token');
  if (cookie === '' || !sameSecret(header, cookie))
    throw csrfFailed(`X-CSRF-Token must repeat the ${names.csrf} cookie`);
  const origin = ctx.get('origin');
  if (origin !== '' && origin !== baseOrigin)
    throw csrfFailed(`Origin ${origin.slice(0, 200)} is not this service (${baseOrigin})`);
}

/** The bearer token, or the dashboard's session cookie when no Authorization header is sent. */
function callerToken(ctx: AppContext, baseUrl: string): string {
  const header = ctx.get('authorization');
  if (header !== '') {
    const token = bearerToken(header);
    if (token === undefined) throw unauthorized();
    return token;
  }
  // Under https only the `__Host-` names are read: a plain-named cookie could have been planted.
  const names = sessionCookieNames(cookiesSecure(baseUrl));
  const cookie = ctx.cookies.get(names.session);
  // Only a JWT is accepted from the cookie: API keys are for servers, never stored by a browser.
  if (cookie === undefined || cookie === '' || !looksLikeJwt(cookie)) throw unauthorized();
  checkCsrf(ctx, new URL(baseUrl).origin, names);
  return cookie;
}

export async function resolveAuth(
  deps: Pick<ApiDeps, 'db' | 'sessions' | 'config'>,
  ctx: AppContext,
): Promise<AuthState> {
  const token = callerToken(ctx, deps.config.baseUrl);
  let userId: string;
  let keyId: string | null = null;
  let epoch: number | null = null;
  let mode: SendMode = 'live';
  let permission: ApiKeyPermission = 'full_access';
  let domainId: string | null = null;
  if (isApiKeyToken(token)) {
    const key = await authenticateApiKey(deps.db, token);
    if (!key) throw invalidApiKey();
    userId = key.user_id;
    keyId = key.id;
    mode = keyMode(key);
    permission = key.permission;
    domainId = key.domain_id;
  } else if (looksLikeJwt(token)) {
    const check = await deps.sessions.verify(token);
    if (!check.ok)
      throw unauthorized(check.reason === 'expired' ? 'Session expired' : 'Invalid session token');
    userId = check.claims.userId;
    epoch = check.claims.epoch;
  } else {
    throw unauthorized('Malformed bearer token');
  }
  const user = await findUserById(deps.db, userId);
  if (!user) throw keyId ? invalidApiKey() : unauthorized('Session no longer valid');
  // A password change, a logout and a reinstatement bump the epoch, so each ends every session
  // issued before it (a suspended account signs in again once reinstated).
  if (epoch !== null && user.session_epoch !== epoch) throw unauthorized('Session no longer valid');
  // The reason goes to the account's own caller: the dashboard shows it in its banner (issue 19).
  if (user.status === 'SUSPENDED')
    throw accountSuspended(undefined, { reason: user.suspension_reason, suspendedAt: user.suspended_at });
  const auth: AuthState = {
    userId,
    kind: keyId ? 'api_key' : 'session',
    keyId,
    mode,
    user,
    permission,
    domainId,
  };
  ctx.state.auth = auth;
  return auth;
}

/**
 * Resolves the caller to an account on every request: API key (`re_live_…`, `re_test_…`) or
 * session JWT. The account row is read each time, so suspension and revocation
 * take effect on the very next request.
 */
export function authenticate(deps: Pick<ApiDeps, 'db' | 'sessions' | 'config'>): Koa.Middleware<AppState> {
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
