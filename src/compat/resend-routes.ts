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
  /**
   * Goes after every route, before the dashboard: a compat request no route answered ends here
   * (the boundary answers it), so an API client never gets a dashboard screen at the same path.
   */
  readonly unmatched: Koa.Middleware;
}

/**
 * The boundary, and on every path the dashboard shares with the surface `Vary: Accept,
 * Authorization`: the same URL is a dashboard page or Resend JSON by those two headers, so a
 * cache must not hand one caller's answer to the other.
 */
function sharedPathBoundary(boundary: Koa.Middleware): Koa.Middleware {
  return async (ctx, next) => {
    if (isResendPath(ctx.path)) {
      ctx.vary('Accept');
      ctx.vary('Authorization');
    }
    await boundary(ctx, next);
  };
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
    boundary: sharedPathBoundary(
      resendErrorBoundary({
        log: deps.log,
        isCompatPath: (ctx) => isResendPath(ctx.path) && !isBrowserNavigation(ctx),
        // A path no route answered is a 501 (an unsupported feature) or a 404 to an authenticated
        // caller only, as Resend's own routes answer 401 first: an anonymous probe learns nothing
        // of what is implemented.
        unsupported: async (ctx) => {
          await resolveAuth(deps, ctx);
          return unsupportedFeature(ctx.method, ctx.path);
        },
      }),
    ),
    groups,
    mounted: groups.map(skippingNavigation),
    unmatched: async (ctx, next) => {
      if (!isResendPath(ctx.path) || isBrowserNavigation(ctx)) await next();
    },
  };
}
