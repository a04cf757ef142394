import { randomBytes } from 'node:crypto';
import type Koa from 'koa';

/** The dashboard's two cookies, by name: which names depends on BASE_URL (`sessionCookieNames`). */
export interface SessionCookieNames {
  /** The session JWT: HttpOnly, so script on the page can never read it. */
  readonly session: string;
  /**
   * The double-submit CSRF token (issue 19): readable by the dashboard's own script, which echoes it
   * in `X-CSRF-Token`; a cross-site page cannot read it, so it cannot forge the header.
   */
  readonly csrf: string;
}

const PLAIN: SessionCookieNames = { session: 'mr_session', csrf: 'mr_csrf' };
/**
 * Under https the `__Host-` prefix: the browser accepts such a cookie only with `Secure`, `Path=/`
 * and no `Domain`, so a sibling subdomain (or a plain-http page on the same host) cannot plant or
 * overwrite one — which would otherwise let it fix the CSRF token it then echoes.
 */
const HOST_PREFIXED: SessionCookieNames = { session: '__Host-mr_session', csrf: '__Host-mr_csrf' };

/** BASE_URL is https: cookies carry `Secure` and the `__Host-` prefix. */
export function cookiesSecure(baseUrl: string): boolean {
  return new URL(baseUrl).protocol === 'https:';
}

export function sessionCookieNames(secure: boolean): SessionCookieNames {
  return secure ? HOST_PREFIXED : PLAIN;
}

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
  const names = sessionCookieNames(secure);
  const common = ['Path=/', 'SameSite=Strict', `Max-Age=${maxAge}`, ...(secure ? ['Secure'] : [])];
  const csrf = randomBytes(32).toString('base64url');
  ctx.append('Set-Cookie', cookie(names.session, session.token, [...common, 'HttpOnly']));
  ctx.append('Set-Cookie', cookie(names.csrf, csrf, common));
}

/** Expires both cookies (logout). */
export function clearSessionCookies(ctx: Koa.Context | Koa.ParameterizedContext, secure: boolean): void {
  const names = sessionCookieNames(secure);
  const common = ['Path=/', 'SameSite=Strict', 'Max-Age=0', ...(secure ? ['Secure'] : [])];
  ctx.append('Set-Cookie', cookie(names.session, '', [...common, 'HttpOnly']));
  ctx.append('Set-Cookie', cookie(names.csrf, '', common));
}
