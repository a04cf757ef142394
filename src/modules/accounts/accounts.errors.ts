import { defineError } from '../../shared/app-error';

export const emailAlreadyRegistered = defineError(
  'EMAIL_ALREADY_REGISTERED',
  409,
  'An account with this email address already exists',
);
export const accountNotFound = defineError('ACCOUNT_NOT_FOUND', 404, 'No such account');
