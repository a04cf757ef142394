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
    refuseWhenSpent(await limiter.hit(`${scope}:${ctx.ip}`), scope);
    await next();
  };
}

/**
 * What limitFailedAttemptsByIp counts against: the accounts module's CredentialAttempts, whose
 * attempt can be taken back.
 */
export interface AttemptLimiter {
  hit(key: string): Promise<RateDecision & { uncount(): Promise<void> }>;
}

/**
 * rateLimitByIp for credential endpoints: an attempt answered 2xx is taken back out of the
 * count, so only failed attempts (any other answer) spend the client IP's budget.
 */
export function limitFailedAttemptsByIp(attempts: AttemptLimiter, scope: string): Koa.Middleware {
  return async (ctx, next) => {
    const attempt = await attempts.hit(`${scope}:${ctx.ip}`);
    refuseWhenSpent(attempt, scope);
    await next();
    if (ctx.status >= 200 && ctx.status < 300) await attempt.uncount();
  };
}

function refuseWhenSpent(decision: RateDecision, scope: string): void {
  if (decision.allowed) return;
  // The header and the message name the same number of seconds.
  throw rateLimited(
    `Too many requests; retry in ${decision.retryAfterS} s`,
    { scope, limit: decision.limit },
    {
      'Retry-After': String(decision.retryAfterS),
      // draft-ietf-httpapi-ratelimit-headers: nothing left of the scope's policy until t.
      RateLimit: `"${scope}";r=0;t=${decision.retryAfterS}`,
    },
  );
}
