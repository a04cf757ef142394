import { AppError, defineError } from '../../shared/app-error';

export const invalidFromAddress = defineError(
  'INVALID_FROM_ADDRESS',
  422,
  '`from` is not a usable sender address',
);
export const invalidRecipient = defineError('INVALID_RECIPIENT', 422, 'A recipient address was rejected');
export const tooManyRecipients = defineError('TOO_MANY_RECIPIENTS', 422, 'Too many recipients');
export const emailTooLarge = defineError('EMAIL_TOO_LARGE', 413, 'Message exceeds the size limit');
export const domainNotVerified = defineError(
  'DOMAIN_NOT_VERIFIED',
  403,
  'The sending domain has not verified SPF and DKIM',
);
export const suppressedRecipient = defineError(
  'SUPPRESSED_RECIPIENT',
  403,
  'One or more recipients are suppressed',
);
export const sendingLimitExceeded = defineError('SENDING_LIMIT_EXCEEDED', 429, 'Sending allowance spent');
export const emailNotFound = defineError('EMAIL_NOT_FOUND', 404, 'No such message on this account');
export const emailQueueFailed = defineError(
  'EMAIL_QUEUE_FAILED',
  503,
  'The message could not be queued; nothing was sent and no quota was used. Safe to retry.',
);
/** EMAIL_QUEUE_FAILED for a failure that is not a refusal (a write, a read, a writer thread that died). */
export function emailQueueFailedBy(cause: unknown): AppError {
  return new AppError({
    code: 'EMAIL_QUEUE_FAILED',
    status: 503,
    message: emailQueueFailed().message,
    cause,
  });
}
export const idempotencyKeyReused = defineError(
  'IDEMPOTENCY_KEY_REUSED',
  409,
  'This Idempotency-Key was used with a different request body',
);
export const emailNotCancellable = defineError(
  'EMAIL_NOT_CANCELLABLE',
  409,
  'Only a queued message that has not been handed to the MTA can be cancelled',
);
/** A preview of `?part=html` of a text-only message (or the reverse). */
export const emailPartNotFound = defineError('EMAIL_PART_NOT_FOUND', 404, 'The message has no such part');
export const emailNotScheduled = defineError(
  'EMAIL_NOT_SCHEDULED',
  409,
  'Only a message still waiting for its scheduled time can be rescheduled',
);
