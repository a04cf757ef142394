import { defineError } from '../../shared/app-error';

export const webhookNotFound = defineError('WEBHOOK_NOT_FOUND', 404, 'No such webhook on this account');
/** Each endpoint multiplies every event into a delivery; the cap bounds that fan-out per account. */
export const webhookLimitReached = defineError(
  'WEBHOOK_LIMIT_REACHED',
  409,
  'This account already has the maximum number of webhooks',
);
/** A disabled endpoint gets no deliveries, a test one included: re-enable it first. */
export const webhookDisabled = defineError(
  'WEBHOOK_DISABLED',
  409,
  'This webhook is disabled; enable it (POST /v1/webhooks/{id}/enable) before sending a test event',
);
/** The attempt to redeliver is not in this endpoint's log (another account's, another endpoint's, or pruned). */
export const webhookAttemptNotFound = defineError(
  'WEBHOOK_ATTEMPT_NOT_FOUND',
  404,
  'No such delivery attempt for this webhook',
);
/** A redelivery sends the event's outbox row again; retention may have deleted it since. */
export const webhookEventExpired = defineError(
  'WEBHOOK_EVENT_EXPIRED',
  409,
  'The event of this attempt is no longer kept (RETENTION_WEBHOOK_EVENTS_DAYS), so it cannot be redelivered',
);
