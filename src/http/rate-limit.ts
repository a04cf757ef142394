import type Koa from 'koa';
import { rateLimited } from '../shared/app-error';
import type { RateLimiter } from '../shared/rate-limiter';

/** Applies a limiter keyed by client IP; 429 RATE_LIMIT_EXCEEDED with Retry-After when spent. */
export function rateLimitByIp(limiter: RateLimiter, scope: string): Koa.Middleware {
  return async (ctx, next) => {
    const decision = limiter.hit(`${scope}:${ctx.ip}`);
    if (!decision.allowed) {
      throw rateLimited(
        `Too many requests; retry in ${decision.retryAfterS} s`,
        { scope, limit: decision.limit },
        {
          'Retry-After': String(decision.retryAfterS),
        },
      );
    }
    await next();
  };
}
