import { defineError } from '../../shared/app-error';

/** Spec, Errors: EMAIL_NOT_FOUND is "no such message on the account", inbound ones included. */
export const inboundNotFound = defineError('EMAIL_NOT_FOUND', 404, 'No such inbound message on this account');
export const attachmentNotFound = defineError(
  'ATTACHMENT_NOT_FOUND',
  404,
  'No such attachment on this message',
);
