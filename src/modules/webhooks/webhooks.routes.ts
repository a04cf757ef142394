import { validate } from '../../http/body';
import type { OperationRequest } from '../../http/operation';
import { defineOperation, serveOperation } from '../../http/operation';
import type { ApiDeps } from '../../http/context';
import { requestActor, requireAuth } from '../../http/context';
import { RouteGroup } from '../../http/route';
import { createSealer } from '../../shared/seal';
import { destinationCheckFromConfig } from './destination-check';
import { signalWork } from '../../shared/work-signal';
import { redeliverAttempt } from './webhook-redelivery';
import { sendTestEvent } from './webhook-test-event';
import { createWebhookBody, patchWebhookBody } from './webhooks.schemas';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookViews,
  rotateWebhookSecret,
  updateWebhook,
} from './webhooks.usecases';
import {
  CreatedWebhookView,
  WebhookDetailView,
  WebhookList,
  WebhookRedeliveryQueued,
  WebhookTestQueued,
  RotatedWebhookView,
  WebhookView,
} from './webhooks.responses';
import { Deleted } from '../../http/response-schema';

/** What the webhook operations need besides the request. */
function webhookDeps(deps: ApiDeps) {
  const { config, db } = deps;
  return {
    db,
    sealer: createSealer({ secretKey: config.secretKey }),
    checkDestination: destinationCheckFromConfig(config),
  };
}

/**
 * The `/v1/webhooks` operations the Resend surface translates too (src/compat), each declared
 * once: auth, validation and use case.
 */
export function webhookOperations(deps: ApiDeps) {
  const { db, sealer, checkDestination } = webhookDeps(deps);
  const byId = ({ params }: OperationRequest) => ({ id: params.id ?? '' });
  return {
    create: defineOperation({
      method: 'post',
      path: '/',
      auth: 'either',
      operationId: 'createWebhook',
      summary: 'Register an endpoint; the signing secret is shown once',
      body: createWebhookBody,
      ok: { status: 201, schema: CreatedWebhookView, description: 'Created' },
      errors: ['WEBHOOK_LIMIT_REACHED'],
      parse: ({ body }) => validate(createWebhookBody, body),
      run: (ctx, input) =>
        createWebhook({
          db,
          userId: requireAuth(ctx).userId,
          actor: requestActor(ctx),
          sealer,
          checkDestination,
          input,
        }),
    }),
    list: defineOperation({
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listWebhooks',
      summary: 'List endpoints',
      ok: { status: 200, schema: WebhookList, description: 'Endpoints' },
      parse: () => ({}),
      run: async (ctx) => ({ data: await listWebhookViews({ db, userId: requireAuth(ctx).userId }) }),
    }),
    get: defineOperation({
      method: 'get',
      path: '/:id',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'getWebhook',
      summary: 'One endpoint with its last 25 delivery attempts',
      ok: { status: 200, schema: WebhookDetailView, description: 'The endpoint' },
      errors: ['WEBHOOK_NOT_FOUND'],
      parse: byId,
      run: (ctx, { id }) => getWebhook({ db, userId: requireAuth(ctx).userId, id }),
    }),
    update: defineOperation({
      method: 'patch',
      path: '/:id',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'updateWebhook',
      summary: 'Change url, events or enabled (re-enabling resets the failure count)',
      body: patchWebhookBody,
      ok: { status: 200, schema: WebhookView, description: 'Updated' },
      errors: ['WEBHOOK_NOT_FOUND'],
      parse: (req) => ({ ...byId(req), input: validate(patchWebhookBody, req.body) }),
      run: (ctx, { id, input }) =>
        updateWebhook({
          db,
          userId: requireAuth(ctx).userId,
          actor: requestActor(ctx),
          checkDestination,
          id,
          input,
        }),
    }),
    remove: defineOperation({
      method: 'delete',
      path: '/:id',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'deleteWebhook',
      summary: 'Delete an endpoint',
      ok: { status: 200, schema: Deleted, description: 'Deleted' },
      errors: ['WEBHOOK_NOT_FOUND'],
      parse: byId,
      run: (ctx, { id }) =>
        deleteWebhook({ db, userId: requireAuth(ctx).userId, actor: requestActor(ctx), id }),
    }),
    rotateSecret: defineOperation({
      method: 'post',
      path: '/:id/rotate-secret',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the signing secret; the new one is shown once',
      ok: { status: 200, schema: RotatedWebhookView, description: 'The endpoint with its new secret' },
      errors: ['WEBHOOK_NOT_FOUND'],
      parse: byId,
      run: (ctx, { id }) =>
        rotateWebhookSecret({ db, userId: requireAuth(ctx).userId, actor: requestActor(ctx), sealer, id }),
    }),
  };
}

/** `/v1/webhooks`: the account's endpoints and their recent delivery attempts. API key or session. */
export function webhookRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/webhooks', 'Webhooks');
  const { db, checkDestination } = webhookDeps(deps);
  const ops = webhookOperations(deps);
  serveOperation(routes, ops.create);
  serveOperation(routes, ops.list);
  serveOperation(routes, ops.get);
  serveOperation(routes, ops.update);
  serveOperation(routes, ops.remove);

  routes.define(
    {
      method: 'post',
      path: '/:id/enable',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'enableWebhook',
      summary: 'Re-enable an endpoint (after auto-disable): the failure count starts afresh',
      ok: { status: 200, schema: WebhookView, description: 'Enabled' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      // The same use case as PATCH {enabled: true}: one way to re-enable, two spellings.
      ctx.body = await updateWebhook({
        db,
        userId,
        actor: requestActor(ctx),
        checkDestination,
        id: ctx.params.id ?? '',
        input: { enabled: true },
      });
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/:id/test',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'testWebhook',
      summary: 'Queue a `webhook.test` delivery to this endpoint; its attempts show in the log',
      ok: { status: 202, schema: WebhookTestQueued, description: 'Queued' },
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DISABLED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.status = 202;
      ctx.body = await sendTestEvent({ db, userId, actor: requestActor(ctx), id: ctx.params.id ?? '' });
      signalWork();
    },
  );

  routes.define(
    {
      method: 'post',
      path: '/:id/attempts/:attemptId/redeliver',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'redeliverWebhookAttempt',
      summary:
        "Queue a new delivery of an attempt's event to this endpoint: a new deliveryId, the same body; its attempts show in the log",
      ok: { status: 202, schema: WebhookRedeliveryQueued, description: 'Queued' },
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_ATTEMPT_NOT_FOUND', 'WEBHOOK_DISABLED', 'WEBHOOK_EVENT_EXPIRED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.status = 202;
      ctx.body = await redeliverAttempt({
        db,
        userId,
        actor: requestActor(ctx),
        id: ctx.params.id ?? '',
        attemptId: ctx.params.attemptId ?? '',
      });
      signalWork();
    },
  );

  serveOperation(routes, ops.rotateSecret);

  return routes;
}
