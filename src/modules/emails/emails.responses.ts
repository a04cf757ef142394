import { z } from 'zod';
import { pageOf, timestamp } from '../../http/response-schema';
import { EMAIL_STATUSES } from '../../db/schema';

const emailStatus = z.enum(EMAIL_STATUSES);
const jsonObject = z.record(z.string(), z.unknown()).nullable();

/** One recipient of a message (email-view.ts). */
export const RecipientView = z
  .object({
    email: z.string(),
    type: z.enum(['to', 'cc', 'bcc']),
    status: emailStatus,
    smtpResponse: z.string().nullable(),
  })
  .meta({ id: 'Recipient' });

export const EmailEventView = z
  .object({
    type: z.string(),
    message: z.string().nullable(),
    recipient: z.string().nullable(),
    createdAt: timestamp,
    tls: z
      .string()
      .nullable()
      .describe(
        'Delivery attempts: the TLS version and cipher of the SMTP session with the MX (e.g. "TLSv1.3 TLS_AES_256_GCM_SHA384"), or "plaintext" when it offered no STARTTLS; null for other entries or when no session was opened.',
      ),
    node: z
      .string()
      .nullable()
      .describe(
        "NODE_NAME of the appliance node that wrote the entry: the worker's hand-off (`processing`, `sent`), the MTA's delivery reports (`delivered`, `deferred`, `bounced`, `failed`), the sweep's hand-back; null for entries no node is recorded for (acceptance, feedback by mail, entries from before issue 23).",
      ),
  })
  .meta({ id: 'EmailEvent' });

/** Where a test-mode message ended (email-view.ts captureView, issue 21). */
export const CaptureView = z
  .object({
    state: z.enum(['pending', 'captured', 'pruned', 'none']),
    unverifiedDomain: z.boolean(),
    capturedAt: timestamp.nullable(),
    sizeBytes: z.number().int().nullable(),
    raw: z.string().nullable(),
    html: z.string().nullable(),
    text: z.string().nullable(),
  })
  .meta({ id: 'Capture' });

/** A message as GET /v1/emails/{id} shows it; lists leave out `events` and `capture`. */
export const EmailView = z
  .object({
    id: z.string(),
    status: emailStatus,
    mode: z.enum(['live', 'test']),
    subject: z.string(),
    fromAddress: z.string(),
    from: z.string(),
    domainId: z.string(),
    smtpResponse: z.string().nullable(),
    attempts: z.number().int(),
    createdAt: timestamp,
    scheduledAt: timestamp.nullable(),
    sentAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
    messageId: z.string(),
    replyTo: z.array(z.string()).nullable(),
    headers: jsonObject,
    tags: jsonObject,
    metadata: jsonObject,
    recipients: z.array(RecipientView),
    capture: CaptureView.nullable()
      .optional()
      .describe('Only on GET /v1/emails/{id}: null for live mail, the capture of test mail.'),
    events: z.array(EmailEventView).optional().describe('Only on GET /v1/emails/{id}.'),
    parts: z
      .object({ html: z.boolean(), text: z.boolean() })
      .optional()
      .describe('Only on GET /v1/emails/{id}: which bodies the message has (what /preview?part= can show).'),
    attachments: z
      .array(
        z.object({
          filename: z.string(),
          contentType: z.string(),
          sizeBytes: z.number().int(),
          inline: z.boolean().describe('Referenced from the HTML by Content-ID'),
        }),
      )
      .optional()
      .describe(
        'Only on GET /v1/emails/{id}: the attachments sent through the API, in order (not their content). Empty for a message submitted over SMTP, whose attachments are inside its raw message.',
      ),
  })
  .meta({ id: 'Email' });

export const EmailPage = pageOf(EmailView)
  .extend({
    total: z
      .object({
        count: z
          .number()
          .int()
          .describe('Messages matching the filters, whatever the cursor; at most 10,000.'),
        capped: z.boolean().describe('True when more than 10,000 match: `count` is then 10,000.'),
      })
      .optional()
      .describe('Only with `total=1`: how many messages match the filters, counted up to 10,000.'),
  })
  .meta({ id: 'EmailPage' });
