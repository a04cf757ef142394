import type Koa from 'koa';
import { resolveAuth } from '../http/authenticate';
import type { ApiDeps, AppState } from '../http/context';
import type { RouteGroup } from '../http/route';
import { mountGroup } from '../http/route-mount';
import { resendApiKeyRoutes } from './resend-api-keys.routes';
import { resendDomainRoutes } from './resend-domains.routes';
import { resendEmailRoutes } from './resend-emails.routes';
import { resendErrorBoundary } from './resend-errors';
import { isBrowserNavigation, isResendPath, unsupportedFeature } from './resend-paths';
import { resendSuppressionRoutes } from './resend-suppressions.routes';
import { resendWebhookRoutes } from './resend-webhooks.routes';

export interface ResendSurface {
  /** Goes before the routes: renders every failure under a Resend path in Resend's shape. */
  readonly boundary: Koa.Middleware;
  /** The routes, for the OpenAPI document. */
  readonly groups: readonly RouteGroup[];
  /** The routes as app middleware, each passing a browser's page load on (`isBrowserNavigation`). */
  readonly mounted: readonly Koa.Middleware<AppState>[];
}

function skippingNavigation(group: RouteGroup): Koa.Middleware<AppState> {
  const routes = mountGroup(group);
  const mounted: Koa.Middleware<AppState> = async (ctx, next) => {
    if (isBrowserNavigation(ctx)) await next();
    else await routes(ctx, next);
  };
  // `.router`: the route-auth and OpenAPI tests walk the app's route table by it.
  return Object.assign(mounted, { router: group.router });
}

/**
 * The Resend-compatible API at the host root (issue 20): Resend's paths, fields and error
 * bodies over the /v1 use cases, so an application using Resend's SDK switches by changing
 * its base URL. `/v1` is unchanged.
 */
export function resendSurface(deps: ApiDeps): ResendSurface {
  const groups = [
    resendEmailRoutes(deps),
    resendDomainRoutes(deps),
    resendApiKeyRoutes(deps),
    resendWebhookRoutes(deps),
    resendSuppressionRoutes(deps),
  ];
  return {
    boundary: resendErrorBoundary({
      log: deps.log,
      isCompatPath: (ctx) => isResendPath(ctx.path) && !isBrowserNavigation(ctx),
      // An unsupported feature answers 501 to an authenticated caller only, as Resend's own
      // routes answer 401 first: an anonymous probe learns nothing of what is implemented.
      unsupported: async (ctx) => {
        const feature = unsupportedFeature(ctx.method, ctx.path);
        if (feature !== undefined) await resolveAuth(deps, ctx);
        return feature;
      },
    }),
    groups,
    mounted: groups.map(skippingNavigation),
  };
}
