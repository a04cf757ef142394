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
    bounces: z
      .array(
        z.object({
          recipient: z.string(),
          kind: z.enum(['hard', 'soft']),
          reason: z.string(),
          explanation: z.string(),
        }),
      )
      .describe(
        "Each bounced recipient's last reply read in plain words: hard (the address cannot receive mail: suppressed, live mail only) or soft (not suppressed), with the classifier's reason.",
      ),
  })
  .meta({ id: 'Delivery' });
