import type { z } from 'zod';
import { validationFailure } from '../http/body';
import { renameFields } from '../http/operation';

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
