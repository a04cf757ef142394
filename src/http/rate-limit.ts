import type Koa from 'koa';
import { rateLimited } from '../shared/app-error';
import type { RateDecision } from '../shared/rate-limiter';

/**
 * What rateLimitByIp counts against: the in-memory RateLimiter (per node: HTTP requests)
 * or the database's CredentialAttempts (shared by every node: credential attempts).
 */
export interface IpLimiter {
  hit(key: string): RateDecision | Promise<RateDecision>;
}

/** Applies a limiter keyed by client IP; 429 RATE_LIMIT_EXCEEDED with Retry-After when spent. */
export function rateLimitByIp(limiter: IpLimiter, scope: string): Koa.Middleware {
  return async (ctx, next) => {
    const decision = await limiter.hit(`${scope}:${ctx.ip}`);
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
