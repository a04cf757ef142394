import { z } from 'zod';
import { RETURN_PATH_LABEL } from './return-path-check';

export const createDomainBody = z.strictObject({
  // Syntax and public-suffix rules are INVALID_DOMAIN (domain-name.ts), not a validation error.
  domain: z.string().trim().min(1, 'must not be empty').max(300),
});

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const inboundLabelField = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === '@' || LABEL.test(v), {
    message:
      'must be @ (the apex) or one DNS label: letters, digits and inner hyphens, at most 63 characters',
  })
  .refine((v) => v !== RETURN_PATH_LABEL, {
    message: `"${RETURN_PATH_LABEL}" is the return-path host (a CNAME), which cannot also hold an MX record`,
  });

// RFC 5321 §4.1.2 dot-atom local part; quoted local parts are not supported.
const ATEXT = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*$`);

export const localPartField = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => !v.includes('@'), { message: 'give the local part only (the part before @)', abort: true })
  .refine((v) => v.length >= 1 && v.length <= 64, { message: 'must be 1 to 64 characters', abort: true })
  .refine((v) => DOT_ATOM.test(v), {
    message:
      "not a valid local part (letters, digits, ! # $ % & ' * + / = ? ^ _ ` { | } ~ - and single inner dots)",
  });

export const patchDomainBody = z
  .strictObject({
    receiveEnabled: z.boolean().optional(),
    inboundLabel: inboundLabelField.optional(),
    // Local parts compare case-insensitively here; duplicates collapse.
    addresses: z
      .array(localPartField)
      .max(1000)
      .transform((list) => [...new Set(list)])
      .optional(),
    restrictSenders: z.boolean().optional(),
    unsubscribeLink: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one of receiveEnabled, inboundLabel, addresses, restrictSenders, unsubscribeLink',
  });
