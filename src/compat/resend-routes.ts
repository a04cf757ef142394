import type Koa from 'koa';
import { resolveAuth } from '../http/authenticate';
import type { ApiDeps } from '../http/context';
import type { RouteGroup } from '../http/route';
import { resendApiKeyRoutes } from './resend-api-keys.routes';
import { resendDomainRoutes } from './resend-domains.routes';
import { resendEmailRoutes } from './resend-emails.routes';
import { resendErrorBoundary } from './resend-errors';
import { isResendPath, unsupportedFeature } from './resend-paths';
import { resendSuppressionRoutes } from './resend-suppressions.routes';
import { resendWebhookRoutes } from './resend-webhooks.routes';

export interface ResendSurface {
  /** Goes before the routes: renders every failure under a Resend path in Resend's shape. */
  readonly boundary: Koa.Middleware;
  readonly groups: readonly RouteGroup[];
}

/**
 * The Resend-compatible API at the host root (issue 20): Resend's paths, fields and error
 * bodies over the /v1 use cases, so an application using Resend's SDK switches by changing
 * its base URL. `/v1` is unchanged.
 */
export function resendSurface(deps: ApiDeps): ResendSurface {
  return {
    boundary: resendErrorBoundary({
      log: deps.log,
      isCompatPath: isResendPath,
      // An unsupported feature answers 501 to an authenticated caller only, as Resend's own
      // routes answer 401 first: an anonymous probe learns nothing of what is implemented.
      unsupported: async (ctx) => {
        const feature = unsupportedFeature(ctx.method, ctx.path);
        if (feature !== undefined) await resolveAuth(deps, ctx);
        return feature;
      },
    }),
    groups: [
      resendEmailRoutes(deps),
      resendDomainRoutes(deps),
      resendApiKeyRoutes(deps),
      resendWebhookRoutes(deps),
      resendSuppressionRoutes(deps),
    ],
  };
}
