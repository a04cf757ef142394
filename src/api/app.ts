import Koa from 'koa';
import { resendSurface } from '../compat/resend-routes';
import { accountRoutes } from '../modules/accounts/accounts.routes';
import { operatorDashboardRoutes } from '../modules/accounts/operator-dashboard.routes';
import { operatorRoutes } from '../modules/accounts/operator.routes';
import { internalInvitationRoutes, operatorInvitationRoutes } from '../modules/accounts/invitations.routes';
import { apiKeyRoutes } from '../modules/api-keys/api-keys.routes';
import { internalBounceRoutes } from '../modules/bounces/internal-bounces.routes';
import { brandingRoutes, publicBrandingRoutes } from '../modules/branding/branding.routes';
import { publicUnsubscribeRoutes } from '../modules/unsubscribe/unsubscribe.routes';
import { domainRoutes } from '../modules/domains/domains.routes';
import { domainTestEmailRoutes } from '../modules/sending/domain-test-email.routes';
import { emailRoutes } from '../modules/sending/emails.routes';
import { inboundRoutes } from '../modules/inbound/inbound.routes';
import { settingsRoutes } from '../modules/settings/settings.routes';
import { statsRoutes } from '../modules/stats/stats.routes';
import { suppressionRoutes } from '../modules/suppressions/suppressions.routes';
import { webhookRoutes } from '../modules/webhooks/webhooks.routes';
import type { Db } from '../db/connect';
import type { AppConfig } from '../config';
import type { AppState } from '../http/context';
import { errorMiddleware } from '../http/error-middleware';
import { healthRoutes } from './health.routes';
import { lingeringClose } from './lingering-close';
import { createMetrics } from './metrics';
import { openApiRoutes } from './openapi';
import { rateLimitByIp } from '../http/rate-limit';
import { RateLimiter } from '../shared/rate-limiter';
import { CredentialAttempts } from '../modules/accounts/credential-attempts';
import { requestAuthenticator } from '../modules/accounts/request-authenticator';
import type { SessionSigner } from '../modules/accounts/sessions';
import { apiKeyCredentials } from '../modules/api-keys/api-key-credentials';
import type { SendCommitter } from '../modules/sending/api-send';
import type { SendRouteDeps } from '../modules/sending/send-request';
import type { Logger } from '../shared/logger';
import type { Operation } from '../http/route';
import { mountGroup, unmatchedMethod } from '../http/route-mount';
import { webApp } from './web-app';

/** What the api process builds once (src/api/main.ts) and the app's routes share. */
export interface AppDeps {
  readonly db: Db;
  /** Where POST /v1/emails runs its commit step: the api's writer thread (api-writer.ts). */
  readonly sendCommitter: SendCommitter;
  readonly config: AppConfig;
  readonly log: Logger;
  readonly sessions: SessionSigner;
}

export interface ApiApp {
  readonly app: Koa<AppState>;
  /** Every route's declaration, as /openapi.json documents it. */
  readonly operations: readonly Operation[];
  /** Stops background timers (rate limiter sweeps). */
  close(): void;
}

/** Builds the Koa application: logging, errors, per-IP limit, then routes. */
export function createApp(appDeps: AppDeps): ApiApp {
  // The route kit's authentication port, wired to the accounts and api-keys modules.
  const deps: SendRouteDeps & AppDeps = {
    ...appDeps,
    authenticator: requestAuthenticator({
      db: appDeps.db,
      sessions: appDeps.sessions,
      baseUrl: appDeps.config.baseUrl,
      apiKeys: apiKeyCredentials(appDeps.db),
    }),
  };
  // Koa keeps the rightmost maxIpsCount entries of X-Forwarded-For and takes the first of them:
  // the address the outermost of our proxies appended. Koa's default (0) reads the leftmost,
  // which the client wrote itself (issue 17 finding 8).
  const app = new Koa<AppState>({
    proxy: deps.config.trustProxy,
    maxIpsCount: deps.config.trustProxyHops,
  });
  const httpLimiter = new RateLimiter(deps.config.httpRateLimitPerMinute, 60_000);
  // In the database, so every node of a cluster counts against one budget (docs/security.md).
  const credentialLimiter = new CredentialAttempts(deps.db, deps.config.authRateLimitPer15Min, 15 * 60_000);
  const metrics = createMetrics(deps);

  app.use(lingeringClose());
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
  // The Resend-compatible surface renders its own errors (issue 20), rate limiting's 429 included.
  const resend = resendSurface(deps);
  app.use(resend.boundary);
  app.use(rateLimitByIp(httpLimiter, 'http'));

  const openApi = openApiRoutes(deps);
  const groups = [
    healthRoutes(deps),
    metrics.routes,
    openApi.routes,
    accountRoutes(deps, credentialLimiter),
    apiKeyRoutes(deps),
    domainRoutes(deps),
    domainTestEmailRoutes(deps),
    emailRoutes(deps),
    inboundRoutes(deps),
    suppressionRoutes(deps),
    webhookRoutes(deps),
    settingsRoutes(deps),
    statsRoutes(deps),
    brandingRoutes(deps),
    publicBrandingRoutes(deps),
    publicUnsubscribeRoutes(deps),
    operatorRoutes(deps),
    operatorDashboardRoutes(deps),
    operatorInvitationRoutes(deps),
    internalInvitationRoutes(deps),
    internalBounceRoutes(deps),
  ];
  const operations = [...groups, ...resend.groups].flatMap((group) => group.operations);
  openApi.publish(operations);
  for (const group of groups) app.use(mountGroup(group));
  for (const mounted of resend.mounted) app.use(mounted);
  app.use(unmatchedMethod);
  // Last: the dashboard answers only GET/HEAD under /app/ (and redirects `/` and its old paths there).
  app.use(webApp());

  return {
    app,
    operations,
    close() {
      httpLimiter.stop();
    },
  };
}
