import { readBody } from '../../http/body';
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

/** `/v1/webhooks`: the account's endpoints and their recent delivery attempts. API key or session. */
export function webhookRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/v1/webhooks', 'Webhooks');
  const { config, db } = deps;
  const sealer = createSealer({ secretKey: config.secretKey });
  const checkDestination = destinationCheckFromConfig(config);

  routes.define(
    {
      method: 'post',
      path: '/',
      auth: 'either',
      operationId: 'createWebhook',
      summary: 'Register an endpoint; the signing secret is shown once',
      body: createWebhookBody,
      ok: { status: 201, schema: CreatedWebhookView, description: 'Created' },
      errors: ['WEBHOOK_LIMIT_REACHED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, createWebhookBody);
      ctx.status = 201;
      ctx.body = await createWebhook({
        db,
        userId,
        actor: requestActor(ctx),
        sealer,
        checkDestination,
        input,
      });
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/',
      auth: 'either',
      operationId: 'listWebhooks',
      summary: 'List endpoints',
      ok: { status: 200, schema: WebhookList, description: 'Endpoints' },
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = { data: await listWebhookViews({ db, userId }) };
    },
  );

  routes.define(
    {
      method: 'get',
      path: '/:id',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'getWebhook',
      summary: 'One endpoint with its last 25 delivery attempts',
      ok: { status: 200, schema: WebhookDetailView, description: 'The endpoint' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await getWebhook({ db, userId, id: ctx.params.id ?? '' });
    },
  );

  routes.define(
    {
      method: 'patch',
      path: '/:id',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'updateWebhook',
      summary: 'Change url, events or enabled (re-enabling resets the failure count)',
      body: patchWebhookBody,
      ok: { status: 200, schema: WebhookView, description: 'Updated' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const input = await readBody(ctx, patchWebhookBody);
      ctx.body = await updateWebhook({
        db,
        userId,
        actor: requestActor(ctx),
        checkDestination,
        id: ctx.params.id ?? '',
        input,
      });
    },
  );

  routes.define(
    {
      method: 'delete',
      path: '/:id',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'deleteWebhook',
      summary: 'Delete an endpoint',
      ok: { status: 200, schema: Deleted, description: 'Deleted' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await deleteWebhook({ db, userId, actor: requestActor(ctx), id: ctx.params.id ?? '' });
    },
  );

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

  routes.define(
    {
      method: 'post',
      path: '/:id/rotate-secret',
      ids: { id: 'whk' },
      auth: 'either',
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the signing secret; the new one is shown once',
      ok: { status: 200, schema: RotatedWebhookView, description: 'The endpoint with its new secret' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      ctx.body = await rotateWebhookSecret({
        db,
        userId,
        actor: requestActor(ctx),
        sealer,
        id: ctx.params.id ?? '',
      });
    },
  );

  return routes;
}
