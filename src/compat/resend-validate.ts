import type { z } from 'zod';
import { validationFailure } from '../http/body';
import type { FieldIssue } from '../shared/app-error';

/**
 * Renames each dot-separated part of the issues' fields from Mailroom's names to the Resend
 * names the caller wrote (`replyTo.0` → `reply_to.0`, `url` → `endpoint`).
 */
export function renameFields(
  issues: readonly FieldIssue[],
  names: ReadonlyMap<string, string>,
): FieldIssue[] {
  return issues.map((issue) => ({
    field: issue.field
      .split('.')
      .map((part) => names.get(part) ?? part)
      .join('.'),
    message: issue.message.replace(/^\S+/, (word) => names.get(word) ?? word),
  }));
}

/**
 * Validates a translated body with the /v1 schema (one set of rules for both surfaces); a
 * failure names the fields as the Resend caller wrote them.
 */
export function validateAs<S extends z.ZodType>(
  schema: S,
  value: unknown,
  names: ReadonlyMap<string, string> = new Map(),
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailure(
    renameFields(
      result.error.issues.map((issue) => ({
        field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
        message: issue.message,
      })),
      names,
    ),
  );
}
