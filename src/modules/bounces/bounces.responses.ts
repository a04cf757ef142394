import { z } from 'zod';

/** The 202 of POST /internal/bounces. */
export const BounceAccepted = z
  .object({ id: z.string(), status: z.literal('queued') })
  .meta({ id: 'BounceAccepted' });
