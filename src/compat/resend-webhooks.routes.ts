import { z } from 'zod';
import { readBody } from '../http/body';
import type { ApiDeps } from '../http/context';
import { requestActor, requireAuth } from '../http/context';
import { RouteGroup } from '../http/route';
import { destinationCheckFromConfig } from '../modules/webhooks/destination-check';
import { isWebhookEvent, WEBHOOK_EVENTS } from '../modules/webhooks/webhook-events';
import { createWebhookBody, patchWebhookBody } from '../modules/webhooks/webhooks.schemas';
import type { WebhookView } from '../modules/webhooks/webhooks.usecases';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookViews,
  rotateWebhookSecret,
  updateWebhook,
} from '../modules/webhooks/webhooks.usecases';
import { createSealer } from '../shared/seal';
import { featureNotImplemented } from './resend-errors';
import { resendPage, resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
import { validateAs } from './resend-validate';
import {
  ResendCreatedWebhook,
  ResendDeleted,
  ResendObjectId,
  ResendWebhook,
  ResendWebhookList,
} from './resend.responses';

const NAMES = new Map([
  ['url', 'endpoint'],
  ['enabled', 'status'],
]);

/** Resend's event names are free text here: those Mailroom does not emit are refused by name (501). */
const eventNames = z.array(z.string().max(64)).max(64);

const createBody = z.strictObject({ endpoint: z.string().max(2048), events: eventNames });
const updateBody = z.strictObject({
  endpoint: z.string().max(2048).optional(),
  events: eventNames.optional(),
  status: z.enum(['enabled', 'disabled']).optional(),
});

function supportedEvents(events: readonly string[] | undefined): void {
  const unknown = (events ?? []).filter((e) => !isWebhookEvent(e));
  if (unknown.length > 0) {
    throw featureNotImplemented(
      `Webhook events ${unknown.join(', ')} are not emitted by Mailroom (it emits ${WEBHOOK_EVENTS.join(', ')})`,
    );
  }
}

function resendWebhook(view: WebhookView) {
  return {
    object: 'webhook' as const,
    id: view.id,
    endpoint: view.url,
    created_at: view.createdAt,
    status: view.enabled ? 'enabled' : 'disabled',
    events: view.events,
  };
}

/**
 * `/webhooks` as Resend's SDKs call it, on the /v1 webhook use cases (the same URL checks,
 * SSRF guard and limits): the Resend body is translated, then validated by /v1's schema.
 */
export function resendWebhookRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/webhooks', RESEND_TAG);
  const { config, db } = deps;
  const sealer = createSealer({ secretKey: config.secretKey });
  const checkDestination = destinationCheckFromConfig(config);
  const common = { auth: 'either', errorShape: 'resend' } as const;

  routes.define(
    {
      ...common,
      method: 'post',
      path: '/',
      operationId: 'resendCreateWebhook',
      summary: 'Resend: register an endpoint; the signing secret is shown once',
      body: createBody,
      ok: { status: 200, schema: ResendCreatedWebhook, description: 'Created' },
      errors: ['WEBHOOK_LIMIT_REACHED', 'NOT_IMPLEMENTED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const body = await readBody(ctx, createBody);
      supportedEvents(body.events);
      // Created the Resend way, delivered the Resend way: `{type, created_at, data}` (issue 20).
      const input = validateAs(
        createWebhookBody,
        { url: body.endpoint, events: body.events, payloadFormat: 'resend' },
        NAMES,
      );
      const created = await createWebhook({
        db,
        userId,
        actor: requestActor(ctx),
        checkDestination,
        sealer,
        input,
      });
      ctx.body = { object: 'webhook', id: created.id, signing_secret: created.secret };
    },
  );

  routes.define(
    {
      ...common,
      method: 'get',
      path: '/',
      operationId: 'resendListWebhooks',
      summary: 'Resend: list endpoints',
      query: resendPageQuery('whk'),
      ok: { status: 200, schema: ResendWebhookList, description: 'Endpoints' },
    },
    async (ctx, q) => {
      const { userId } = requireAuth(ctx);
      ctx.body = resendPage((await listWebhookViews({ db, userId })).map(resendWebhook), q);
    },
  );

  routes.define(
    {
      ...common,
      method: 'get',
      path: '/:id',
      ids: { id: 'whk' },
      operationId: 'resendGetWebhook',
      summary: 'Resend: one endpoint (without its secret, which is shown only once)',
      ok: { status: 200, schema: ResendWebhook, description: 'The endpoint' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const { attempts: _attempts, ...view } = await getWebhook({ db, userId, id: ctx.params.id ?? '' });
      ctx.body = resendWebhook(view);
    },
  );

  routes.define(
    {
      ...common,
      method: 'patch',
      path: '/:id',
      ids: { id: 'whk' },
      operationId: 'resendUpdateWebhook',
      summary: 'Resend: change an endpoint’s URL, events or status',
      body: updateBody,
      ok: { status: 200, schema: ResendObjectId, description: 'Updated' },
      errors: ['WEBHOOK_NOT_FOUND', 'NOT_IMPLEMENTED'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const body = await readBody(ctx, updateBody);
      supportedEvents(body.events);
      const input = validateAs(
        patchWebhookBody,
        {
          url: body.endpoint,
          events: body.events,
          enabled: body.status === undefined ? undefined : body.status === 'enabled',
        },
        NAMES,
      );
      const id = ctx.params.id ?? '';
      const updated = await updateWebhook({
        db,
        userId,
        actor: requestActor(ctx),
        checkDestination,
        id,
        input,
      });
      ctx.body = { object: 'webhook', id: updated.id };
    },
  );

  routes.define(
    {
      ...common,
      method: 'delete',
      path: '/:id',
      ids: { id: 'whk' },
      operationId: 'resendRemoveWebhook',
      summary: 'Resend: remove an endpoint',
      ok: { status: 200, schema: ResendDeleted, description: 'Removed' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const removed = await deleteWebhook({ db, userId, actor: requestActor(ctx), id: ctx.params.id ?? '' });
      ctx.body = { object: 'webhook', id: removed.id, deleted: true };
    },
  );

  routes.define(
    {
      ...common,
      method: 'post',
      path: '/:id/signing-secret/rotate',
      ids: { id: 'whk' },
      operationId: 'resendRotateWebhookSecret',
      summary: 'Resend: a new signing secret, shown once; the old one stops at once',
      ok: { status: 200, schema: ResendCreatedWebhook, description: 'Rotated' },
      errors: ['WEBHOOK_NOT_FOUND'],
    },
    async (ctx) => {
      const { userId } = requireAuth(ctx);
      const id = ctx.params.id ?? '';
      const rotated = await rotateWebhookSecret({ db, userId, actor: requestActor(ctx), sealer, id });
      ctx.body = { object: 'webhook', id: rotated.id, signing_secret: rotated.secret };
    },
  );

  return routes;
}
