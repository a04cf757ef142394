import Router from '@koa/router';
import { readBody } from '../../http/body';
import type { ApiDeps, AppState } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { authenticate } from '../../http/authenticate';
import { rateLimitByIp } from '../../http/rate-limit';
import type { RateLimiter } from '../../http/rate-limiter';
import { changePasswordBody, loginBody, registerBody } from './accounts.schemas';
import { changePassword, getAccount, login, register } from './accounts.usecases';

/**
 * Credential bodies are read before any authentication: a few fields, so a small cap keeps an
 * anonymous caller from making the service parse megabytes (issue 17 finding 5).
 */
const CREDENTIAL_BODY_BYTES = 16 * 1024;

/** `/v1/auth/*`: register, login, me, change-password. Credential endpoints share a per-IP attempt budget. */
export function accountRoutes(deps: ApiDeps, credentialLimiter: RateLimiter): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/v1/auth' });
  const limited = rateLimitByIp(credentialLimiter, 'credentials');

  router.post('/register', limited, async (ctx) => {
    const input = await readBody(ctx, registerBody, CREDENTIAL_BODY_BYTES);
    ctx.status = 201;
    ctx.body = await register({ db: deps.db, sessions: deps.sessions, actor: requestActor(ctx), input });
  });

  router.post('/login', limited, async (ctx) => {
    const input = await readBody(ctx, loginBody, CREDENTIAL_BODY_BYTES);
    ctx.body = await login({ db: deps.db, sessions: deps.sessions, actor: requestActor(ctx), input });
  });

  router.get('/me', authenticate(deps), async (ctx) => {
    const { userId } = requireAuth(ctx);
    const account = await getAccount({ db: deps.db, userId });
    ctx.body = { id: account.id, email: account.email, name: account.name, status: account.status };
  });

  router.post('/change-password', limited, authenticate(deps), async (ctx) => {
    const { userId } = requireAuth(ctx);
    const input = await readBody(ctx, changePasswordBody);
    ctx.body = await changePassword({
      db: deps.db,
      sessions: deps.sessions,
      actor: requestActor(ctx),
      userId,
      input,
    });
  });

  return router;
}
