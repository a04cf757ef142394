import Koa from 'koa';
import { accountRoutes } from '../modules/accounts/accounts.routes';
import { operatorRoutes } from '../modules/accounts/operator.routes';
import { apiKeyRoutes } from '../modules/api-keys/api-keys.routes';
import { internalBounceRoutes } from '../modules/bounces/internal-bounces.routes';
import { brandingRoutes, publicBrandingRoutes } from '../modules/branding/branding.routes';
import { domainRoutes } from '../modules/domains/domains.routes';
import { emailRoutes } from '../modules/emails/emails.routes';
import { inboundRoutes } from '../modules/inbound/inbound.routes';
import { settingsRoutes } from '../modules/settings/settings.routes';
import { statsRoutes } from '../modules/stats/stats.routes';
import { suppressionRoutes } from '../modules/suppressions/suppressions.routes';
import { webhookRoutes } from '../modules/webhooks/webhooks.routes';
import type { ApiDeps, AppState } from './context';
import { errorMiddleware } from './error-middleware';
import { healthRoutes } from './health.routes';
import { createMetrics } from './metrics';
import { openApiRoutes } from './openapi';
import { rateLimitByIp } from './rate-limit';
import { RateLimiter } from './rate-limiter';

export interface ApiApp {
  readonly app: Koa<AppState>;
  /** Stops background timers (rate limiter sweeps). */
  close(): void;
}

/** Builds the Koa application: logging, errors, per-IP limit, then routes. */
export function createApp(deps: ApiDeps): ApiApp {
  // Koa keeps the rightmost maxIpsCount entries of X-Forwarded-For and takes the first of them:
  // the address the outermost of our proxies appended. Koa's default (0) reads the leftmost,
  // which the client wrote itself (issue 17 finding 8).
  const app = new Koa<AppState>({
    proxy: deps.config.trustProxy,
    maxIpsCount: deps.config.trustProxyHops,
  });
  const httpLimiter = new RateLimiter(deps.config.httpRateLimitPerMinute, 60_000);
  const credentialLimiter = new RateLimiter(deps.config.authRateLimitPer15Min, 15 * 60_000);
  const metrics = createMetrics(deps);

  // One line per request (issue 11: one write per request, not two). A route that has a spec log
  // event to write (POST /v1/emails: `email_queued`) puts it in ctx.state.accessLog and this line
  // carries it, with the request's fields.
  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const request = {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
      };
      const routed = ctx.state.accessLog;
      if (routed === undefined) deps.log.info({ event: 'http_request', ...request }, 'request');
      else deps.log.info({ event: routed.event, ...routed.fields, ...request }, routed.msg);
    }
  });
  app.use(metrics.middleware);
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  app.use(rateLimitByIp(httpLimiter, 'http'));

  for (const router of [
    healthRoutes(deps),
    metrics.router,
    openApiRoutes({ baseUrl: deps.config.baseUrl }),
    accountRoutes(deps, credentialLimiter),
    apiKeyRoutes(deps),
    domainRoutes(deps),
    emailRoutes(deps),
    inboundRoutes(deps),
    suppressionRoutes(deps),
    webhookRoutes(deps),
    settingsRoutes(deps),
    statsRoutes(deps),
    brandingRoutes(deps),
    publicBrandingRoutes(deps),
    operatorRoutes(deps),
    internalBounceRoutes(deps),
  ]) {
    // The router's middleware typed as the app's (app.use accepts them as they are).
    const routes = router.routes() as unknown as Koa.Middleware<AppState>;
    const allowed = router.allowedMethods({ throw: true }) as unknown as Koa.Middleware<AppState>;
    const prefix = router.opts.prefix;
    if (!prefix) {
      app.use(routes);
      app.use(allowed);
      continue;
    }
    // A router with a prefix matches nothing outside it: skip its route matching (every layer's
    // regular expression) for other paths (issue 11). Case-insensitive, as the router's own
    // matching is; routers without a prefix (first in the list) still set ctx.matched for
    // allowedMethods, which reads it whichever router filled it.
    const mine = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`, 'i');
    const gated: Koa.Middleware<AppState> = async (ctx, next) => {
      if (mine.test(ctx.path)) await routes(ctx, () => allowed(ctx, next) as Promise<void>);
      else await next();
    };
    // `.router` as on the router's own middleware: the OpenAPI test walks the app's routes by it.
    app.use(Object.assign(gated, { router }));
  }

  return {
    app,
    close() {
      httpLimiter.stop();
      credentialLimiter.stop();
    },
  };
}
