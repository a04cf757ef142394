import { z } from 'zod';

/** The one error shape (error-middleware.ts); openapi.ts narrows `code` per status. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' });
