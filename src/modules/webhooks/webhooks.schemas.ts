import { z } from 'zod';
import { WEBHOOK_PAYLOAD_FORMATS } from '../../db/schema';
import { WEBHOOK_EVENTS } from './webhook-events';
import { checkWebhookUrl } from './webhook-url';

const webhookUrl = z.string().transform((s, ctx) => {
  const check = checkWebhookUrl(s.trim());
  if (!check.ok) {
    ctx.addIssue({ code: 'custom', message: check.message });
    return z.NEVER;
  }
  return check.href;
});

/** Unique, in the spec's order, so the stored list does not depend on how the client wrote it. */
const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, 'subscribe to at least one event')
  .max(WEBHOOK_EVENTS.length * 2)
  .transform((list) => WEBHOOK_EVENTS.filter((e) => list.includes(e)));

/** Issue 20: the spec's payload (`mailroom`) or Resend's `{type, created_at, data}` (`resend`). */
const payloadFormat = z.enum(WEBHOOK_PAYLOAD_FORMATS);

export const createWebhookBody = z.strictObject({
  url: webhookUrl,
  events,
  enabled: z.boolean().optional(),
  payloadFormat: payloadFormat.default('mailroom'),
});

/** Spec leaves the PATCH body open: any of url, events, enabled; re-enabling resets the failure count. */
export const patchWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    events: events.optional(),
    enabled: z.boolean().optional(),
    payloadFormat: payloadFormat.optional(),
  })
  .refine(
    (b) =>
      b.url !== undefined ||
      b.events !== undefined ||
      b.enabled !== undefined ||
      b.payloadFormat !== undefined,
    { message: 'give at least one of url, events, enabled, payloadFormat' },
  );

export type CreateWebhookInput = z.infer<typeof createWebhookBody>;
export type PatchWebhookInput = z.infer<typeof patchWebhookBody>;
