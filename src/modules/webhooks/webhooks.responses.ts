import { z } from 'zod';
import { listOf, timestamp } from '../../http/response-schema';
import { WEBHOOK_PAYLOAD_FORMATS } from '../../db/schema';
import { WEBHOOK_EVENTS } from './webhook-events';

/** webhooks.usecases.ts webhookView */
export const WebhookView = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    payloadFormat: z.enum(WEBHOOK_PAYLOAD_FORMATS),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    disabledAt: timestamp.nullable(),
    consecutiveFailures: z.number().int(),
    lastSuccessAt: timestamp.nullable(),
    lastFailureAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Webhook' });

export const CreatedWebhookView = WebhookView.extend({
  secret: z.string().describe('Signing secret; shown once.'),
  warnings: z
    .array(z.string())
    .optional()
    .describe('Present when the endpoint was saved but will likely fail, e.g. its host does not resolve.'),
}).meta({ id: 'CreatedWebhook' });

/** webhooks.usecases.ts attemptView */
export const WebhookAttemptView = z
  .object({
    id: z.string(),
    deliveryId: z.string(),
    event: z.string(),
    attempt: z.number().int(),
    succeeded: z.boolean(),
    httpStatus: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
    responseExcerpt: z.string().nullable().meta({
      description: "The first 512 bytes of the receiver's response body (UTF-8); null when it did not answer",
    }),
    createdAt: timestamp,
    request: z
      .object({
        headers: z.record(z.string(), z.string()).meta({
          description:
            'The request headers as sent: Content-Type, User-Agent, X-Mail-Event, X-Mail-Delivery-Id, X-Mail-Signature and the Standard Webhooks webhook-*/svix-* trio. The signatures are not secret; the signing secret is never included',
        }),
        body: z.string().meta({ description: 'The raw body as sent (the bytes the signatures cover)' }),
      })
      .nullable()
      .meta({
        description:
          'What this attempt sent, or tried to send (a refused address or a failed lookup sends nothing; see error); null for attempts made before Mailroom kept it',
      }),
    mode: z.enum(['live', 'test']).meta({
      description:
        '`test` for an event of mail sent with a test-mode key (captured, never delivered) and for `webhook.test`; `live` otherwise',
    }),
    redeliveryOf: z.string().nullable().meta({
      description:
        'On a redelivery (POST /v1/webhooks/{id}/attempts/{attemptId}/redeliver), the deliveryId it repeats; else null',
    }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDetailView = WebhookView.extend({ attempts: z.array(WebhookAttemptView) }).meta({
  id: 'WebhookDetail',
});

export const WebhookList = listOf(WebhookView).meta({ id: 'WebhookList' });

/** webhook-test-event.ts sendTestEvent */
export const WebhookTestQueued = z
  .object({
    webhookId: z.string(),
    event: z.literal('webhook.test'),
    deliveryId: z.string(),
    createdAt: timestamp,
  })
  .meta({ id: 'WebhookTestQueued' });
/** The 200 of POST /v1/webhooks/{id}/rotate-secret: the only response with the new secret. */
export const RotatedWebhookView = WebhookView.extend({
  secret: z.string().describe('The new signing secret; shown once.'),
}).meta({ id: 'RotatedWebhook' });

/** webhook-redelivery.ts redeliverAttempt */
export const WebhookRedeliveryQueued = z
  .object({
    webhookId: z.string(),
    attemptId: z.string(),
    event: z.string(),
    deliveryId: z.string().describe("The new delivery's X-Mail-Delivery-Id"),
    redeliveryOf: z.string().describe('The deliveryId of the attempt redelivered'),
    createdAt: timestamp,
  })
  .meta({ id: 'WebhookRedeliveryQueued' });
