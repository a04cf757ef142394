// The face of the emails module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { insertCaptured } from './captured-message.repository';
export { insertEvent, recordEmailEvent } from './email-events.repository';
export {
  domainNotVerified,
  emailNotCancellable,
  emailNotFound,
  emailNotScheduled,
  emailPartNotFound,
  emailQueueFailed,
  emailQueueFailedBy,
  emailTooLarge,
  idempotencyKeyReused,
  invalidFromAddress,
  invalidRecipient,
  sendingLimitExceeded,
  suppressedRecipient,
  tooManyRecipients,
} from './emails.errors';
export type { EmailRow, RecipientRow } from './emails.repository';
export {
  deleteTestEmailsOfDomain,
  domainHasHistory,
  findAccountEmail,
  markCancelled,
  markRescheduled,
} from './emails.repository';
export { EmailPage, EmailView } from './emails.responses';
export {
  accountEmailWithRecipients,
  emailPart,
  getCapturedRaw,
  getEmailView,
  listEmailViews,
} from './emails.usecases';
