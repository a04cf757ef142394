import type Koa from 'koa';
import { resolveAuth } from '../http/authenticate';
import type { AppState } from '../http/context';
import type { RouteGroup } from '../http/route';
import { mountGroup } from '../http/route-mount';
import { resendApiKeyRoutes } from './resend-api-keys.routes';
import { resendDomainRoutes } from './resend-domains.routes';
import { resendEmailRoutes } from './resend-emails.routes';
import { resendErrorBoundary } from './resend-errors';
import { isResendPath, unsupportedFeature } from './resend-paths';
import { resendSuppressionRoutes } from './resend-suppressions.routes';
import { resendWebhookRoutes } from './resend-webhooks.routes';
import type { SendRouteDeps } from '../modules/sending/send-request';

export interface ResendSurface {
  /** Goes before the routes: renders every failure under a Resend path in Resend's shape. */
  readonly boundary: Koa.Middleware;
  /** The routes, for the OpenAPI document. */
  readonly groups: readonly RouteGroup[];
  /**
   * The routes as app middleware. They answer their paths whatever the request's headers: the
   * dashboard lives under `/app/` (issue 30), so no path is shared with it.
   */
  readonly mounted: readonly Koa.Middleware<AppState>[];
}

/**
 * The Resend-compatible API at the host root (issue 20): Resend's paths, fields and error
 * bodies over the /v1 use cases, so an application using Resend's SDK switches by changing
 * its base URL. `/v1` is unchanged.
 */
export function resendSurface(deps: SendRouteDeps): ResendSurface {
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
      isCompatPath: (ctx) => isResendPath(ctx.path),
      // A path no route answered is a 501 (an unsupported feature) or a 404 to an authenticated
      // caller only, as Resend's own routes answer 401 first: an anonymous probe learns nothing
      // of what is implemented.
      unsupported: async (ctx) => {
        await resolveAuth(deps, ctx);
        return unsupportedFeature(ctx.method, ctx.path);
      },
    }),
    groups,
    mounted: groups.map(mountGroup),
  };
}
