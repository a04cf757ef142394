import type Koa from 'koa';
import type { SendMode } from '../db/schema';
import { findUserById } from '../modules/accounts/accounts.repository';
import { looksLikeJwt } from '../modules/accounts/sessions';
import { authenticateApiKey, isApiKeyToken, keyMode } from '../modules/api-keys/api-keys.usecases';
import { accountSuspended, forbidden, invalidApiKey, unauthorized } from '../shared/app-error';
import type { ApiDeps, AppContext, AppState, AuthState } from './context';

/** `Authorization: Bearer <token>`; anything else is UNAUTHORIZED. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export async function resolveAuth(
  deps: Pick<ApiDeps, 'db' | 'sessions'>,
  ctx: AppContext,
): Promise<AuthState> {
  const token = bearerToken(ctx.get('authorization'));
  if (token === undefined) throw unauthorized();
  let userId: string;
  let keyId: string | null = null;
  let epoch: number | null = null;
  let mode: SendMode = 'live';
  if (isApiKeyToken(token)) {
    const key = await authenticateApiKey(deps.db, token);
    if (!key) throw invalidApiKey();
    userId = key.user_id;
    keyId = key.id;
    mode = keyMode(key);
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
  // A password change bumps the epoch and so ends every session issued before it.
  if (epoch !== null && user.session_epoch !== epoch) throw unauthorized('Session no longer valid');
  if (user.status === 'SUSPENDED') throw accountSuspended();
  const auth: AuthState = { userId, kind: keyId ? 'api_key' : 'session', keyId, mode, user };
  ctx.state.auth = auth;
  return auth;
}

/**
 * Resolves the caller to an account on every request: API key (`re_live_…`, `re_test_…`) or
 * session JWT. The account row is read each time, so suspension and revocation
 * take effect on the very next request.
 */
export function authenticate(deps: Pick<ApiDeps, 'db' | 'sessions'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    await resolveAuth(deps, ctx);
    await next();
  };
}

/** For dashboard-only actions (API key management): an API key is authenticated but not allowed. */
export function requireSession(ctx: AppContext): string {
  const auth = ctx.state.auth;
  if (!auth) throw unauthorized();
  if (auth.kind !== 'session') throw forbidden('This action needs a session token, not an API key');
  return auth.userId;
}
