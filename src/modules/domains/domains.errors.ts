import { defineError } from '../../shared/app-error';

export const domainNotFound = defineError('DOMAIN_NOT_FOUND', 404, 'No such domain on this account');
export const domainAlreadyExists = defineError(
  'DOMAIN_ALREADY_EXISTS',
  409,
  'This domain has already been added to the account',
);
export const invalidDomain = defineError('INVALID_DOMAIN', 422, 'Not a domain one can send from');
/** Only one account at a time holds a name verified (docs/domains.md). */
export const domainVerifiedElsewhere = defineError(
  'DOMAIN_VERIFIED_ELSEWHERE',
  409,
  'This domain is verified on another account; remove it there before verifying it here',
);

export const domainHasHistoryError = defineError(
  'DOMAIN_HAS_HISTORY',
  409,
  'This domain has sending history and cannot be deleted',
);
