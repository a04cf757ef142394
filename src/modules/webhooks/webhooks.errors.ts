import { defineError } from '../../shared/app-error';

export const webhookNotFound = defineError('WEBHOOK_NOT_FOUND', 404, 'No such webhook on this account');
/** Each endpoint multiplies every event into a delivery; the cap bounds that fan-out per account. */
export const webhookLimitReached = defineError(
  'WEBHOOK_LIMIT_REACHED',
  409,
  'This account already has the maximum number of webhooks',
);
