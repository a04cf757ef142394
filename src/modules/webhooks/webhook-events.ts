import type { WebhookEventName } from './webhook-outbox.repository';

/** Spec: Events, webhook event names. A webhook subscribes to a non-empty subset. */
export const WEBHOOK_EVENTS = [
  'email.sent',
  'email.delivered',
  'email.bounced',
  'email.failed',
  'email.complained',
  'email.received',
  // Not in the spec's list: a recipient used the one-click unsubscribe link (issue 22 item 5).
  'email.unsubscribed',
] as const satisfies readonly WebhookEventName[];

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const known = new Set<string>(WEBHOOK_EVENTS);

export function isWebhookEvent(value: string): value is WebhookEvent {
  return known.has(value);
}

/** The stored JSON list, tolerating a row edited by hand: unknown names are dropped. */
export function parseEvents(json: string): WebhookEvent[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value)
      ? value.filter((e): e is WebhookEvent => typeof e === 'string' && isWebhookEvent(e))
      : [];
  } catch {
    return [];
  }
}
