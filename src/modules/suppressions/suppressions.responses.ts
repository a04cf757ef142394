import { z } from 'zod';
import { pageOf, timestamp } from '../../http/response-schema';

/** suppressions.usecases.ts suppressionView */
export const SuppressionView = z
  .object({
    id: z.string(),
    email: z.string(),
    type: z.enum(['hard_bounce', 'soft_bounce', 'complaint', 'manual', 'unsubscribe']),
    reason: z.string().nullable(),
    sourceEmailId: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Suppression' });

export const SuppressionPage = pageOf(SuppressionView).meta({ id: 'SuppressionPage' });
