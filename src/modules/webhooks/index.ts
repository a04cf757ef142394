// The face of the webhooks module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { WEBHOOK_QUEUE } from './webhook-dispatch';
export type { WebhookEventName } from './webhook-outbox.repository';
export { recordOutbox } from './webhook-outbox.repository';
