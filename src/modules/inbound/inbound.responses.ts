import { z } from 'zod';
import { pageOf, timestamp } from '../../http/response-schema';

const nullableString = z.string().nullable();

/** A message in the inbound list (inbound-view.ts). */
export const InboundSummaryView = z
  .object({
    id: z.string(),
    domainId: nullableString,
    from: nullableString,
    fromAddress: nullableString,
    to: z.array(z.string()),
    cc: z.array(z.string()),
    subject: nullableString,
    read: z.boolean(),
    spfResult: nullableString,
    dkimResult: nullableString,
    dmarcResult: nullableString,
    authenticated: z.boolean(),
    attachmentCount: z.number().int(),
    size: z.number().int(),
    receivedAt: timestamp,
    unparsed: z
      .boolean()
      .describe('The message could not be parsed: only its envelope, size and raw bytes are known.'),
    unparsedReason: nullableString.describe('Why it could not be parsed; null when it was.'),
  })
  .meta({ id: 'InboundSummary' });

export const InboundAttachmentView = z
  .object({
    id: z.string(),
    filename: nullableString,
    contentType: z.string(),
    size: z.number().int(),
    contentId: nullableString,
    disposition: nullableString,
  })
  .meta({ id: 'InboundAttachment' });

/** GET /v1/inbound/{id}: the summary and the message itself. */
export const InboundMessageView = InboundSummaryView.extend({
  mailFrom: z.string(),
  rcptTo: z.array(z.string()),
  remoteIp: nullableString,
  helo: nullableString,
  messageId: nullableString,
  date: nullableString,
  text: nullableString,
  html: nullableString.describe('Exactly as received, unsanitised.'),
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
  attachments: z.array(InboundAttachmentView),
  attachmentsDropped: z.number().int(),
}).meta({ id: 'InboundMessage' });

export const InboundPage = pageOf(InboundSummaryView).meta({ id: 'InboundPage' });
