import { z } from 'zod';
import type Koa from 'koa';
import { readBody } from '../../http/body';
import type { ApiDeps } from '../../http/context';
import { operatorActor, sessionOperatorActor } from '../../http/context';
import { Deleted, listOf, timestamp } from '../../http/response-schema';
import { RouteGroup } from '../../http/route';
import type { Actor } from '../audit';
import { emailField } from './accounts.schemas';
import { INVITATION_DAYS_MAX, createInvitation, listInvitations, revokeInvitation } from './invitations';

export const inviteBody = z.strictObject({
  email: emailField,
  expiresInDays: z.number().int().min(1).max(INVITATION_DAYS_MAX).optional(),
});

/** invitations.ts InvitationView: never the token. */
export const InvitationView = z
  .object({
    id: z.string(),
    email: z.string(),
    createdBy: z.string(),
    createdAt: timestamp,
    expiresAt: timestamp,
  })
  .meta({ id: 'Invitation' });

export const InvitationList = listOf(InvitationView).meta({ id: 'InvitationList' });

/** The create answer: the only time the token (and the sign-up link holding it) is shown. */
export const CreatedInvitationView = InvitationView.extend({ token: z.string(), url: z.string() }).meta({
  id: 'CreatedInvitation',
});

/**
 * Invitations to register (SIGNUP_MODE=invite), the same use cases as `ctl accounts invite |
 * invitations | revoke-invitation`: on `/v1/operator/invitations` for operators' sessions (the
 * dashboard) and on `/internal/invitations` for scripts with the internal token.
 */
function invitationRoutes(
  deps: ApiDeps,
  routes: RouteGroup,
  at: { auth: 'operator' | 'internal'; operationPrefix: string; actor: (ctx: Koa.Context) => Actor },
): RouteGroup {
  routes.define(
    {
      method: 'get',
      path: '/',
      auth: at.auth,
      operationId: `${at.operationPrefix}ListInvitations`,
      summary: 'Pending invitations, newest first (never their tokens)',
      ok: { status: 200, schema: InvitationList, description: 'The pending invitations' },
    },
    async (ctx) => {
      ctx.body = { data: await listInvitations({ db: deps.db }) };
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: at.auth,
      operationId: `${at.operationPrefix}CreateInvitation`,
      summary: 'Invite an address to register; answers its token and sign-up link once',
      body: inviteBody,
      ok: { status: 201, schema: CreatedInvitationView, description: 'The invitation, with its token' },
      errors: ['EMAIL_ALREADY_REGISTERED'],
    },
    async (ctx) => {
      const input = await readBody(ctx, inviteBody);
      ctx.status = 201;
      ctx.body = await createInvitation({
        db: deps.db,
        actor: at.actor(ctx),
        baseUrl: deps.config.baseUrl,
        email: input.email,
        expiresInDays: input.expiresInDays,
      });
    },
  );

  routes.define(
    {
      method: 'delete',
      path: '/:id',
      ids: { id: 'inv' },
      auth: at.auth,
      operationId: `${at.operationPrefix}RevokeInvitation`,
      summary: 'Revoke a pending invitation',
      ok: { status: 200, schema: Deleted, description: 'Revoked' },
      errors: ['INVITATION_NOT_FOUND'],
    },
    async (ctx) => {
      const id = ctx.params.id ?? '';
      await revokeInvitation({ db: deps.db, actor: at.actor(ctx), id });
      ctx.body = { id, deleted: true };
    },
  );
  return routes;
}

export function operatorInvitationRoutes(deps: ApiDeps): RouteGroup {
  return invitationRoutes(deps, new RouteGroup(deps, '/v1/operator/invitations', 'Operator'), {
    auth: 'operator',
    operationPrefix: 'operator',
    actor: sessionOperatorActor,
  });
}

export function internalInvitationRoutes(deps: ApiDeps): RouteGroup {
  return invitationRoutes(deps, new RouteGroup(deps, '/internal/invitations', 'Operator'), {
    auth: 'internal',
    operationPrefix: 'internal',
    actor: operatorActor,
  });
}
