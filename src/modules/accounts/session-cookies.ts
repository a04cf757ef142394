import { randomBytes } from 'node:crypto';
import type Koa from 'koa';

/** The session JWT for the dashboard: HttpOnly, so script on the page can never read it. */
export const SESSION_COOKIE = 'mr_session';
/**
 * The double-submit CSRF token (issue 19): readable by the dashboard's own script, which echoes it
 * in `X-CSRF-Token`; a cross-site page cannot read it, so it cannot forge the header.
 */
export const CSRF_COOKIE = 'mr_csrf';

function cookie(name: string, value: string, attrs: readonly string[]): string {
  return [`${name}=${value}`, ...attrs].join('; ');
}

/**
 * Sets both cookies next to the token the body returns (Bearer clients are unchanged).
 * Written by hand rather than with ctx.cookies: Koa refuses a `Secure` cookie on a plain
 * connection, and behind a TLS-terminating proxy BASE_URL, not the socket, says https.
 */
export function setSessionCookies(
  ctx: Koa.Context | Koa.ParameterizedContext,
  session: { readonly token: string; readonly expiresAt: string },
  secure: boolean,
): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000));
  const common = ['Path=/', 'SameSite=Strict', `Max-Age=${maxAge}`, ...(secure ? ['Secure'] : [])];
  const csrf = randomBytes(32).toString('base64url');
  ctx.append('Set-Cookie', cookie(SESSION_COOKIE, session.token, [...common, 'HttpOnly']));
  ctx.append('Set-Cookie', cookie(CSRF_COOKIE, csrf, common));
}

/** Expires both cookies (logout). */
export function clearSessionCookies(ctx: Koa.Context | Koa.ParameterizedContext, secure: boolean): void {
  const common = ['Path=/', 'SameSite=Strict', 'Max-Age=0', ...(secure ? ['Secure'] : [])];
  ctx.append('Set-Cookie', cookie(SESSION_COOKIE, '', [...common, 'HttpOnly']));
  ctx.append('Set-Cookie', cookie(CSRF_COOKIE, '', common));
}

/** BASE_URL is https: cookies carry `Secure`. */
export function cookiesSecure(baseUrl: string): boolean {
  return new URL(baseUrl).protocol === 'https:';
}
