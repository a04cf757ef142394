import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connect';
import type { ApiKeyPermission, SendMode } from '../../db/schema';
import type { ApiKeyCredentials } from '../../http/authenticate';
import { bearerToken } from '../../http/authenticate';
import type { AppContext, Authenticator, AuthState } from '../../http/context';
import { accountSuspended, csrfFailed, invalidApiKey, unauthorized } from '../../shared/app-error';
import { findUserById } from './accounts.repository';
import type { SessionCookieNames } from './session-cookies';
import { cookiesSecure, sessionCookieNames } from './session-cookies';
import type { SessionSigner } from './sessions';
import { looksLikeJwt } from './sessions';

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

/**
 * The route kit's {@link Authenticator} (src/http/context.ts): an API key, checked by
 * `apiKeys` (the api-keys module's), or a session JWT signed by `sessions`; then the account
 * row, read for every request.
 */
export function requestAuthenticator(deps: {
  readonly db: Db;
  readonly sessions: SessionSigner;
  readonly baseUrl: string;
  readonly apiKeys: ApiKeyCredentials;
}): Authenticator {
  return {
    async authenticate(ctx) {
      const token = callerToken(ctx, deps.baseUrl);
      let userId: string;
      let keyId: string | null = null;
      let epoch: number | null = null;
      let mode: SendMode = 'live';
      let permission: ApiKeyPermission = 'full_access';
      let domainId: string | null = null;
      if (deps.apiKeys.recognises(token)) {
        const key = await deps.apiKeys.verify(token);
        if (!key) throw invalidApiKey();
        ({ userId, keyId, mode, permission, domainId } = key);
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
      return auth;
    },
  };
}
