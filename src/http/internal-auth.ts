import type Koa from 'koa';
import { unauthorized } from '../shared/app-error';
import { safeEqual } from '../shared/secrets';

/**
 * `X-Internal-Token` for operator endpoints. With no INTERNAL_API_TOKEN configured
 * they are closed (401), never open.
 */
export function requireInternalToken(token: string | undefined): Koa.Middleware {
  return async (ctx, next) => {
    const given = ctx.get('x-internal-token');
    if (token === undefined || given === '' || !safeEqual(given, token)) {
      throw unauthorized('Missing or wrong X-Internal-Token');
    }
    await next();
  };
}
