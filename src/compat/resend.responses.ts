/**
 * Response shapes of the Resend-compatible routes, after the SDK's own types
 * (node_modules/resend/dist/index.d.mts), as zod schemas with `.meta({ id })` for the OpenAPI
 * document. The SDK tests (test/integration/resend-sdk-*.test.ts) check real answers against
 * the document strictly, so a view that drifts fails.
 */
import { z } from 'zod';

const list = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), has_more: z.boolean(), data: z.array(item) });

/** The error body every compat route answers (resend-errors.ts). */
export const ResendError = z
  .object({ statusCode: z.number().int(), name: z.string(), message: z.string() })
  .meta({ id: 'ResendError' });

export const ResendId = z.object({ id: z.string() }).meta({ id: 'ResendId' });
export const ResendObjectId = z.object({ object: z.string(), id: z.string() }).meta({ id: 'ResendObjectId' });
export const ResendDeleted = z
  .object({ object: z.string(), id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'ResendDeleted' });
export const ResendBatch = z.object({ data: z.array(ResendId) }).meta({ id: 'ResendBatch' });

/** resend-emails.ts resendListEmail */
export const ResendListEmail = z
  .object({
    id: z.string(),
    to: z.array(z.string()),
    from: z.string(),
    created_at: z.string(),
    subject: z.string(),
    bcc: z.array(z.string()).nullable(),
    cc: z.array(z.string()).nullable(),
    reply_to: z.array(z.string()).nullable(),
    last_event: z.string(),
    scheduled_at: z.string().nullable(),
    message_id: z.string(),
  })
  .meta({ id: 'ResendListEmail' });

/** resend-emails.ts getResendEmail */
export const ResendEmail = ResendListEmail.extend({
  object: z.literal('email'),
  html: z.string().nullable(),
  text: z.string().nullable(),
  tags: z.array(z.object({ name: z.string(), value: z.string() })),
}).meta({ id: 'ResendEmail' });

export const ResendEmailList = list(ResendListEmail).meta({ id: 'ResendEmailList' });

/** resend-domains.routes.ts resendRecord */
export const ResendDnsRecord = z
  .object({
    record: z.string(),
    name: z.string(),
    type: z.string(),
    value: z.string(),
    ttl: z.string(),
    status: z.string(),
    priority: z.number().int().optional(),
  })
  .meta({ id: 'ResendDnsRecord' });

/** resend-domains.routes.ts resendDomain */
export const ResendDomainSummary = z
  .object({
    object: z.literal('domain'),
    id: z.string(),
    name: z.string(),
    status: z.enum(['pending', 'verified', 'failed']),
    created_at: z.string(),
    region: z.string(),
    capabilities: z.object({ sending: z.string(), receiving: z.string() }),
    open_tracking: z.boolean(),
    click_tracking: z.boolean(),
  })
  .meta({ id: 'ResendDomainSummary' });

export const ResendDomain = ResendDomainSummary.extend({ records: z.array(ResendDnsRecord) }).meta({
  id: 'ResendDomain',
});
export const ResendDomainList = list(ResendDomainSummary).meta({ id: 'ResendDomainList' });

export const ResendCreatedApiKey = z.object({ id: z.string(), token: z.string() }).meta({
  id: 'ResendCreatedApiKey',
});
export const ResendApiKey = z
  .object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })
  .meta({ id: 'ResendApiKey' });
export const ResendApiKeyList = list(ResendApiKey).meta({ id: 'ResendApiKeyList' });

export const ResendCreatedWebhook = z
  .object({ object: z.literal('webhook'), id: z.string(), signing_secret: z.string() })
  .meta({ id: 'ResendCreatedWebhook' });
/** resend-webhooks.routes.ts resendWebhook */
export const ResendWebhook = z
  .object({
    object: z.literal('webhook'),
    id: z.string(),
    endpoint: z.string(),
    created_at: z.string(),
    status: z.enum(['enabled', 'disabled']),
    events: z.array(z.string()),
  })
  .meta({ id: 'ResendWebhook' });
export const ResendWebhookList = list(ResendWebhook).meta({ id: 'ResendWebhookList' });

/** resend-suppressions.routes.ts entry */
export const ResendSuppressionEntry = z
  .object({
    id: z.string(),
    email: z.string(),
    origin: z.enum(['bounce', 'complaint', 'manual']),
    source_id: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ResendSuppressionEntry' });
export const ResendSuppression = ResendSuppressionEntry.extend({ object: z.literal('suppression') }).meta({
  id: 'ResendSuppression',
});
export const ResendSuppressionList = list(ResendSuppressionEntry).meta({ id: 'ResendSuppressionList' });
