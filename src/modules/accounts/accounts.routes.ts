import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { limitFailedAttemptsByIp } from '../../http/rate-limit';
import { RouteGroup } from '../../http/route';
import { changePasswordBody, loginBody, registerBody } from './accounts.schemas';
import { changePassword, getAccount, login, logout, register } from './accounts.usecases';
import { AuthOptionsView, MeView, SessionView } from './accounts.responses';
import type { CredentialAttempts } from './credential-attempts';
import { clearSessionCookies, cookiesSecure, setSessionCookies } from './session-cookies';
import type { SessionSigner } from './sessions';

/**
 * Credential bodies are read before any authentication: a few fields, so a small cap keeps an
 * anonymous caller from making the service parse megabytes (issue 17 finding 5).
 */
const CREDENTIAL_BODY_BYTES = 16 * 1024;

/**
 * `/v1/auth/*`: options, register, login, me, change-password. Credential endpoints share a per-IP
 * budget of failed attempts.
 */
export function accountRoutes(
  deps: ApiDeps & { readonly sessions: SessionSigner },
  credentialLimiter: CredentialAttempts,
): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/auth', 'Account');
  const limited = limitFailedAttemptsByIp(credentialLimiter, 'credentials');
  const secure = cookiesSecure(deps.config.baseUrl);
  const origin = new URL(deps.config.baseUrl).origin;

  routes.define(
    {
      method: 'get',
      path: '/options',
      auth: 'none',
      operationId: 'authOptions',
      summary: "What a sign-in screen needs before signing in: BASE_URL's origin",
      ok: { status: 200, schema: AuthOptionsView, description: 'The options' },
    },
    (ctx) => {
      // Public already: every link the service generates starts with BASE_URL.
      ctx.body = { origin };
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/register',
      auth: 'none',
      before: limited,
      operationId: 'register',
      summary: 'Create an account; answers a session token',
      body: registerBody,
      ok: { status: 201, schema: SessionView, description: 'Registered' },
      errors: ['EMAIL_ALREADY_REGISTERED', 'INVITATION_REQUIRED', 'INVITATION_INVALID', 'SIGNUP_CLOSED'],
    },
    async (ctx) => {
      const input = await readBody(ctx, registerBody, CREDENTIAL_BODY_BYTES);
      const session = await register({
        db: deps.db,
        sessions: deps.sessions,
        signupMode: deps.config.signupMode,
        actor: requestActor(ctx),
        input,
      });
      setSessionCookies(ctx, session, secure);
      ctx.status = 201;
      ctx.body = session;
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/login',
      auth: 'none',
      before: limited,
      operationId: 'login',
      summary: 'Exchange email and password for a session token',
      body: loginBody,
      ok: { status: 200, schema: SessionView, description: 'Logged in' },
      errors: ['INVALID_CREDENTIALS', 'ACCOUNT_SUSPENDED'],
    },
    async (ctx) => {
      const input = await readBody(ctx, loginBody, CREDENTIAL_BODY_BYTES);
      const session = await login({ db: deps.db, sessions: deps.sessions, actor: requestActor(ctx), input });
      setSessionCookies(ctx, session, secure);
      ctx.body = session;
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/me',
      auth: 'either',
      operationId: 'me',
      summary: 'The calling account',
      ok: { status: 200, schema: MeView, description: 'The account' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const account = await getAccount({ db: deps.db, userId });
      ctx.body = {
        id: account.id,
        email: account.email,
        name: account.name,
        status: account.status,
        role: account.role,
      };
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/change-password',
      auth: 'either',
      before: limited,
      operationId: 'changePassword',
      summary: 'Change the password; ends every earlier session and answers a fresh one',
      body: changePasswordBody,
      ok: { status: 200, schema: SessionView, description: 'Changed' },
      errors: ['INVALID_CREDENTIALS'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, changePasswordBody, CREDENTIAL_BODY_BYTES);
      const session = await changePassword({
        db: deps.db,
        sessions: deps.sessions,
        actor: requestActor(ctx),
        userId,
        input,
      });
      // The old cookie's epoch is gone: a dashboard that changed the password stays signed in.
      if (ctx.get('authorization') === '') setSessionCookies(ctx, session, secure);
      ctx.body = session;
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/logout',
      auth: 'session',
      operationId: 'logout',
      summary: 'End every session of the account (bumps the session epoch) and clear the dashboard cookies',
      ok: { status: 204, description: 'Signed out everywhere' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      await logout({ db: deps.db, actor: requestActor(ctx), userId });
      clearSessionCookies(ctx, secure);
      ctx.status = 204;
    },
  );

  return routes;
}
