import { z } from 'zod';
import { timestamp } from '../../http/response-schema';

/** delivery-explanation.ts deliveryView: "why is this still queued?" */
export const DeliveryView = z
  .object({
    state: z.enum(['scheduled', 'queued', 'retrying', 'sending', 'sent', 'deferred', 'done']),
    attempts: z.number().int(),
    nextAttemptAt: timestamp.nullable(),
    lastDeferral: z.object({ at: timestamp, reply: z.string(), explanation: z.string() }).nullable(),
    summary: z.string(),
  })
  .meta({ id: 'Delivery' });
