import { z } from 'zod';
import { listOf, timestamp } from '../../http/response-schema';

/** The 202 of POST /v1/emails (send-email.ts). */
export const SendAccepted = z
  .object({ id: z.string(), status: z.literal('queued'), createdAt: timestamp })
  .meta({ id: 'SendAccepted' });

/** The 202 of POST /v1/emails/batch: one entry per message, in the order given. */
export const BatchAccepted = listOf(SendAccepted).meta({ id: 'BatchAccepted' });
