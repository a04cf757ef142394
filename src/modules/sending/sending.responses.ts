import { z } from 'zod';
import { DeliveryView } from '../delivery';
import { EmailView } from '../emails';
import { listOf, timestamp } from '../../http/response-schema';

/** The 202 of POST /v1/emails (send-email.ts). */
export const SendAccepted = z
  .object({ id: z.string(), status: z.literal('queued'), createdAt: timestamp })
  .meta({ id: 'SendAccepted' });

/** GET /v1/emails/{id}: the message with its events and its delivery state. */
export const EmailDetail = EmailView.extend({
  delivery: DeliveryView.describe('Where the message is on its way, and why it is still queued.'),
}).meta({ id: 'EmailDetail' });
/** The 202 of POST /v1/emails/batch: one entry per message, in the order given. */
export const BatchAccepted = listOf(SendAccepted).meta({ id: 'BatchAccepted' });
