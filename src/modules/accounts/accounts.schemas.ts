import { z } from 'zod';
import { hasControlChars } from '../../shared/text';

const noControl = (s: string): boolean => !hasControlChars(s);

export const emailField = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be an email address' }))
  .transform((s) => s.toLowerCase());

// scrypt input is capped so a megabyte password cannot be used to burn CPU.
export const passwordField = z.string().min(10, 'must be at least 10 characters').max(256);

export const registerBody = z.strictObject({
  email: emailField,
  password: passwordField,
  name: z.string().trim().min(1).max(200).refine(noControl, 'must not contain control characters'),
  /** An operator's invitation token (SIGNUP_MODE=invite). */
  invitation: z.string().trim().min(1).max(200).optional(),
});

export const loginBody = z.strictObject({
  email: emailField,
  password: z.string().min(1).max(256),
});

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(256),
  newPassword: passwordField,
});

export const suspendBody = z.strictObject({
  reason: z.string().trim().min(1).max(500),
});

const limit = z.number().int().min(0).max(10_000_000).nullable();

export const operatorLimitsBody = z
  .strictObject({ emailsPerHour: limit.optional(), emailsPerDay: limit.optional() })
  .refine((b) => b.emailsPerHour !== undefined || b.emailsPerDay !== undefined, {
    message: 'give emailsPerHour and/or emailsPerDay',
  });
