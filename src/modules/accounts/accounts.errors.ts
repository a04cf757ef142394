import { defineError } from '../../shared/app-error';

export const emailAlreadyRegistered = defineError(
  'EMAIL_ALREADY_REGISTERED',
  409,
  'An account with this email address already exists',
);
export const accountNotFound = defineError('ACCOUNT_NOT_FOUND', 404, 'No such account');
/**
 * An operator's session suspending its own account: the suspension would end that very session
 * and lock the operator out of the screen that reinstates it.
 */
export const cannotSuspendSelf = defineError(
  'CANNOT_SUSPEND_SELF',
  403,
  'An operator cannot suspend its own account',
);
