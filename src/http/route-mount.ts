import type Koa from 'koa';
import { defineError } from '../shared/app-error';
import type { AppState } from './context';
import type { RouteGroup } from './route';

const methodNotAllowed = defineError('METHOD_NOT_ALLOWED', 405, 'Method not allowed');

/** A layer @koa/router leaves in `ctx.matched` (structural: only what is read here). */
interface MatchedLayer {
  readonly methods: readonly string[];
  readonly paramNames: readonly unknown[];
}

/**
 * A group's routes as app middleware. Refuses a group whose router holds a layer
 * that `define` did not put there (a `router.use()` guard or an undeclared route):
 * auth and documentation come only with a declaration.
 */
export function mountGroup(group: RouteGroup): Koa.Middleware<AppState> {
  const { router, prefix, operations } = group;
  if (router.stack.length !== operations.length) {
    throw new Error(`routes under '${prefix}' registered without a declaration (RouteGroup.define)`);
  }
  const routes = router.routes() as unknown as Koa.Middleware<AppState>;
  // A group matches nothing outside its prefix: skip its route matching (every layer's
  // regular expression) for other paths (issue 11). Case-sensitive, as the routers are
  // (issue 17 finding 1): `/INTERNAL/…` is no route at all.
  const mine = prefix ? new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`) : undefined;
  const gated: Koa.Middleware<AppState> = async (ctx, next) => {
    if (mine === undefined || mine.test(ctx.path)) await routes(ctx, next);
    else await next();
  };
  // `.router`: tests walk the app's route table by it.
  return Object.assign(gated, { router });
}

/**
 * After every group: a path that fits a route under another method. 405 only when the
 * path is the route's literal path (`PUT /v1/auth/login`); a path that merely fits a
 * parameterised template (`POST /v1/emails/metrics` against `GET /v1/emails/:id`) names
 * no resource and is 404 NOT_FOUND (issue 18 item 6). OPTIONS lists the methods.
 */
export const unmatchedMethod: Koa.Middleware<AppState> = async (ctx, next) => {
  const matched = ((ctx as { matched?: readonly MatchedLayer[] }).matched ?? []).filter(
    (layer) => layer.methods.length > 0,
  );
  if (matched.length === 0) {
    await next();
    return;
  }
  const allow = [...new Set(matched.flatMap((layer) => layer.methods))].join(', ');
  if (ctx.method === 'OPTIONS') {
    ctx.set('Allow', allow);
    ctx.status = 204;
    return;
  }
  if (!matched.some((layer) => layer.paramNames.length === 0)) {
    await next();
    return;
  }
  throw methodNotAllowed(`${ctx.method} is not allowed here`, undefined, { Allow: allow });
};
