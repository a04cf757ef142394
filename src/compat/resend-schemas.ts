/**
 * Response shapes of the Resend-compatible routes for the OpenAPI document, after the SDK's
 * own types (node_modules/resend/dist/index.d.mts) and checked against real responses by
 * test/integration/resend-sdk.test.ts.
 */
import type { JsonSchema } from '../http/openapi-schemas';
import { obj, ref } from '../http/openapi-schemas';

const str: JsonSchema = { type: 'string' };
const bool: JsonSchema = { type: 'boolean' };
const nullableStr: JsonSchema = { type: ['string', 'null'] };
const nullableStrs: JsonSchema = { type: ['array', 'null'], items: str };
const strs: JsonSchema = { type: 'array', items: str };
const list = (item: string): JsonSchema =>
  obj({ object: { const: 'list' }, has_more: bool, data: { type: 'array', items: ref(item) } });

const listEmail = {
  id: str,
  to: strs,
  from: str,
  created_at: str,
  subject: str,
  bcc: nullableStrs,
  cc: nullableStrs,
  reply_to: nullableStrs,
  last_event: str,
  scheduled_at: nullableStr,
  message_id: str,
};
const domain = {
  object: { const: 'domain' },
  id: str,
  name: str,
  status: { type: 'string', enum: ['pending', 'verified', 'failed'] },
  created_at: str,
  region: str,
  capabilities: obj({ sending: str, receiving: str }),
  open_tracking: bool,
  click_tracking: bool,
};
const webhook = {
  object: { const: 'webhook' },
  id: str,
  endpoint: str,
  created_at: str,
  status: { type: 'string', enum: ['enabled', 'disabled'] },
  events: strs,
};
const suppression = {
  id: str,
  email: str,
  origin: { type: 'string', enum: ['bounce', 'complaint', 'manual'] },
  source_id: nullableStr,
  created_at: str,
};

/** components.schemas of the compatibility surface, beside RESPONSE_SCHEMAS. */
export const RESEND_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ResendError: obj({ statusCode: { type: 'integer' }, name: str, message: str }),
  ResendId: obj({ id: str }),
  ResendObjectId: obj({ object: str, id: str }),
  ResendDeleted: obj({ object: str, id: str, deleted: { const: true } }),
  ResendBatch: obj({ data: { type: 'array', items: ref('ResendId') } }),
  ResendListEmail: obj(listEmail),
  ResendEmail: obj({
    object: { const: 'email' },
    ...listEmail,
    html: nullableStr,
    text: nullableStr,
    tags: { type: 'array', items: obj({ name: str, value: str }) },
  }),
  ResendEmailList: list('ResendListEmail'),
  ResendDnsRecord: obj(
    { record: str, name: str, type: str, value: str, ttl: str, status: str, priority: { type: 'integer' } },
    ['priority'],
  ),
  ResendDomainSummary: obj(domain),
  ResendDomain: obj({ ...domain, records: { type: 'array', items: ref('ResendDnsRecord') } }),
  ResendDomainList: list('ResendDomainSummary'),
  ResendCreatedApiKey: obj({ id: str, token: str }),
  ResendApiKey: obj({ id: str, name: str, created_at: str, last_used_at: nullableStr }),
  ResendApiKeyList: list('ResendApiKey'),
  ResendCreatedWebhook: obj({ object: { const: 'webhook' }, id: str, signing_secret: str }),
  ResendWebhook: obj(webhook),
  ResendWebhookList: list('ResendWebhook'),
  ResendSuppression: obj({ object: { const: 'suppression' }, ...suppression }),
  ResendSuppressionEntry: obj(suppression),
  ResendSuppressionList: list('ResendSuppressionEntry'),
};
