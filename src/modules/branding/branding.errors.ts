import { defineError } from '../../shared/app-error';

export const invalidLogo = defineError(
  'INVALID_LOGO',
  422,
  'The logo must be the bytes of a PNG, JPEG or SVG image',
);
export const logoTooLarge = defineError('LOGO_TOO_LARGE', 413, 'The logo is larger than allowed');
export const logoNotFound = defineError('LOGO_NOT_FOUND', 404, 'No logo');
