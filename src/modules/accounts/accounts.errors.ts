import { defineError } from '../../shared/app-error';

export const emailAlreadyRegistered = defineError(
  'EMAIL_ALREADY_REGISTERED',
  409,
  'An account with this email address already exists',
);
export const accountNotFound = defineError('ACCOUNT_NOT_FOUND', 404, 'No such account');
export const signupClosed = defineError(
  'SIGNUP_CLOSED',
  403,
  'Registration is closed on this server: ask its operator to create your account',
);
export const invitationRequired = defineError(
  'INVITATION_REQUIRED',
  403,
  'Registration on this server needs an invitation: ask its operator for one (it comes as a link or a token)',
);
/** One code for an unknown, used, revoked, expired or other address's token: nothing leaks. */
export const invitationInvalid = defineError(
  'INVITATION_INVALID',
  403,
  'This invitation is not valid for this address: it may have expired, been used or revoked. Ask the operator for a new one',
);
export const invitationNotFound = defineError('INVITATION_NOT_FOUND', 404, 'No such pending invitation');
/**
 * An operator's session suspending its own account: the suspension would end that very session
 * and lock the operator out of the screen that reinstates it.
 */
export const cannotSuspendSelf = defineError(
  'CANNOT_SUSPEND_SELF',
  403,
  'An operator cannot suspend its own account',
);
