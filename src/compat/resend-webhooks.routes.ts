import { z } from 'zod';
import { validate } from '../http/body';
import type { ApiDeps } from '../http/context';
import { serveTranslation } from '../http/operation';
import { RouteGroup } from '../http/route';
import { isWebhookEvent, WEBHOOK_EVENTS } from '../modules/webhooks/webhook-events';
import { webhookOperations } from '../modules/webhooks/webhooks.routes';
import type { WebhookView } from '../modules/webhooks/webhooks.usecases';
import { featureNotImplemented } from './resend-errors';
import { resendPage, resendPageQuery } from './resend-page';
import { RESEND_TAG } from './resend-paths';
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

function resendWebhook(view: Omit<WebhookView, 'attempts'>) {
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
 * `/webhooks` as Resend's SDKs call it: the /v1 webhook operations translated (the same URL
 * checks, SSRF guard and limits). A Resend body is checked against Resend's fields, then
 * renamed and validated by /v1's schema.
 */
export function resendWebhookRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '/webhooks', RESEND_TAG);
  const ops = webhookOperations(deps);
  const common = { errorShape: 'resend', names: NAMES } as const;

  serveTranslation(routes, ops.create, {
    ...common,
    method: 'post',
    path: '/',
    operationId: 'resendCreateWebhook',
    summary: 'Resend: register an endpoint; the signing secret is shown once',
    body: createBody,
    ok: { status: 200, schema: ResendCreatedWebhook, description: 'Created' },
    errors: ['NOT_IMPLEMENTED'],
    request: (req) => {
      const body = validate(createBody, req.body);
      supportedEvents(body.events);
      // Created the Resend way, delivered the Resend way: `{type, created_at, data}` (issue 20).
      return { ...req, body: { url: body.endpoint, events: body.events, payloadFormat: 'resend' } };
    },
    response: (created) => ({ object: 'webhook', id: created.id, signing_secret: created.secret }),
  });

  serveTranslation(routes, ops.list, {
    ...common,
    method: 'get',
    path: '/',
    operationId: 'resendListWebhooks',
    summary: 'Resend: list endpoints',
    query: resendPageQuery('whk'),
    ok: { status: 200, schema: ResendWebhookList, description: 'Endpoints' },
    response: (list, { query }) => resendPage(list.data.map(resendWebhook), query),
  });

  serveTranslation(routes, ops.get, {
    ...common,
    method: 'get',
    path: '/:id',
    operationId: 'resendGetWebhook',
    summary: 'Resend: one endpoint (without its secret, which is shown only once)',
    ok: { status: 200, schema: ResendWebhook, description: 'The endpoint' },
    response: resendWebhook,
  });

  serveTranslation(routes, ops.update, {
    ...common,
    method: 'patch',
    path: '/:id',
    operationId: 'resendUpdateWebhook',
    summary: 'Resend: change an endpoint’s URL, events or status',
    body: updateBody,
    ok: { status: 200, schema: ResendObjectId, description: 'Updated' },
    errors: ['NOT_IMPLEMENTED'],
    request: (req) => {
      const body = validate(updateBody, req.body);
      supportedEvents(body.events);
      const enabled = body.status === undefined ? undefined : body.status === 'enabled';
      return { ...req, body: { url: body.endpoint, events: body.events, enabled } };
    },
    response: (updated) => ({ object: 'webhook', id: updated.id }),
  });

  serveTranslation(routes, ops.remove, {
    ...common,
    method: 'delete',
    path: '/:id',
    operationId: 'resendRemoveWebhook',
    summary: 'Resend: remove an endpoint',
    ok: { status: 200, schema: ResendDeleted, description: 'Removed' },
    response: (removed) => ({ object: 'webhook', id: removed.id, deleted: true }),
  });

  serveTranslation(routes, ops.rotateSecret, {
    ...common,
    method: 'post',
    path: '/:id/signing-secret/rotate',
    operationId: 'resendRotateWebhookSecret',
    summary: 'Resend: a new signing secret, shown once; the old one stops at once',
    ok: { status: 200, schema: ResendCreatedWebhook, description: 'Rotated' },
    response: (rotated) => ({ object: 'webhook', id: rotated.id, signing_secret: rotated.secret }),
  });

  return routes;
}
