/**
 * Response shapes of the OpenAPI document (JSON Schema 2020-12), hand-written
 * because the views are plain functions, not zod schemas. Each mirrors one view
 * (named beside it); test/integration/openapi.test.ts checks real
 * responses against them with undeclared properties counted as errors, so a view
 * that gains or loses a field fails until this file follows.
 */
import { EMAIL_STATUSES } from '../db/schema';
import { WEBHOOK_EVENTS } from '../modules/webhooks/webhook-events';

export type JsonSchema = Readonly<Record<string, unknown>>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const num: JsonSchema = { type: 'number' };
const bool: JsonSchema = { type: 'boolean' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
const strs: JsonSchema = { type: 'array', items: str };
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** An object whose properties are all required except those named in `optional`. */
export function obj(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
  };
}

/** `{data: T[]}` or, for paged lists, `{data, hasMore, nextCursor}`. */
const list = (item: string): JsonSchema => obj({ data: arrayOf(ref(item)) });
const page = (item: string): JsonSchema =>
  obj({ data: arrayOf(ref(item)), hasMore: bool, nextCursor: nullable(str) });

const emailStatus: JsonSchema = { type: 'string', enum: EMAIL_STATUSES };
const check = obj(
  {
    verified: bool,
    code: {
      type: 'string',
      enum: [
        'MISSING_RECORD',
        'MULTIPLE_SPF_RECORDS',
        'INCLUDE_MISSING',
        'KEY_MISMATCH',
        'INVALID_RECORD',
        'LOOKUP_FAILED',
      ],
    },
    message: str,
    found: strs,
    expected: str,
  },
  ['code', 'message', 'found', 'expected'],
);
const usageWindow = obj({ used: int, limit: int });
const usage = obj({ hour: usageWindow, day: usageWindow });
const limitView = obj({ effective: int, override: nullable(int), own: nullable(int), default: int });
const publicUser = obj({ id: str, email: str, name: str });

/** components.schemas */
const keyPermission: JsonSchema = { type: 'string', enum: ['full_access', 'sending_access'] };

export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  // http/error-middleware.ts
  Error: obj({
    error: obj({ code: str, message: str, details: { type: 'object' } }, ['details']),
  }),
  // http/health.routes.ts
  Health: obj({ status: { const: 'ok' } }),
  Ready: obj({
    status: { type: 'string', enum: ['ok', 'degraded', 'unavailable'] },
    checks: obj({
      database: ref('ReadyCheck'),
      queue: ref('ReadyCheck'),
      redis: ref('ReadyCheck'),
      mail: ref('ReadyCheck'),
      disk: ref('ReadyCheck'),
    }),
  }),
  ReadyCheck: obj({ ok: bool, error: str }, ['error']),
  // accounts.usecases.ts: SessionResult, publicUser, accountView
  Session: obj({ token: str, expiresAt: time, user: publicUser }),
  Me: obj({ id: str, email: str, name: str, status: { type: 'string', enum: ['ACTIVE', 'SUSPENDED'] } }),
  OperatorAccount: obj(
    {
      id: str,
      email: str,
      name: str,
      status: { type: 'string', enum: ['ACTIVE', 'SUSPENDED'] },
      createdAt: time,
      suspendedAt: nullable(time),
      suspensionReason: nullable(str),
      emailsPerHour: nullable(int),
      emailsPerDay: nullable(int),
      ownEmailsPerHour: nullable(int),
      ownEmailsPerDay: nullable(int),
      stoppedEmails: { ...int, description: 'Only on suspend: queued messages stopped.' },
    },
    ['stoppedEmails'],
  ),
  // api-keys.usecases.ts: apiKeyView, CreatedApiKey
  ApiKey: obj({
    id: str,
    name: str,
    mode: { const: 'live' },
    keyPrefix: str,
    permission: keyPermission,
    domainId: nullable(str),
    createdAt: time,
    lastUsedAt: nullable(time),
    revokedAt: nullable(time),
  }),
  CreatedApiKey: obj({
    id: str,
    name: str,
    mode: { const: 'live' },
    keyPrefix: str,
    permission: keyPermission,
    domainId: nullable(str),
    token: { type: 'string', description: 'The secret `re_live_…`; shown only in this response.' },
    warning: str,
    createdAt: time,
  }),
  ApiKeyList: list('ApiKey'),
  // domains: dns-records.ts, domains.usecases.ts domainView, domain-verification.ts
  DnsRecord: obj(
    {
      purpose: { type: 'string', enum: ['spf', 'dkim', 'dmarc', 'return_path', 'mx'] },
      type: { type: 'string', enum: ['TXT', 'CNAME', 'MX'] },
      host: str,
      name: str,
      value: str,
      priority: { ...int, description: 'MX only.' },
      ttl: int,
      required: bool,
      description: str,
    },
    ['priority'],
  ),
  Domain: obj({
    id: str,
    domain: str,
    status: { type: 'string', enum: ['PENDING', 'VERIFIED', 'FAILED'] },
    records: arrayOf(ref('DnsRecord')),
    receiveEnabled: bool,
    inboundLabel: str,
    addresses: strs,
    restrictSenders: bool,
    verifiedAt: nullable(time),
    lastCheckedAt: nullable(time),
    createdAt: time,
    updatedAt: time,
  }),
  DomainList: list('Domain'),
  DeletedDomain: obj({ id: str, domain: str, deleted: { const: true } }),
  CheckResult: check,
  Verification: obj(
    {
      verified: bool,
      domain: str,
      status: { type: 'string', enum: ['PENDING', 'VERIFIED', 'FAILED'] },
      spf: ref('CheckResult'),
      dkim: ref('CheckResult'),
      dmarc: ref('CheckResult'),
      returnPath: ref('CheckResult'),
      mx: ref('CheckResult'),
      required: obj({ spf: bool, dkim: bool, dmarc: bool, returnPath: bool, mx: bool }, ['mx']),
      nextSteps: strs,
    },
    ['mx', 'nextSteps'],
  ),
  // emails: send-email.ts (202 body), email-view.ts
  SendAccepted: obj({ id: str, status: { const: 'queued' }, createdAt: time }),
  BatchAccepted: list('SendAccepted'),
  Recipient: obj({
    email: str,
    type: { type: 'string', enum: ['to', 'cc', 'bcc'] },
    status: emailStatus,
    smtpResponse: nullable(str),
  }),
  EmailEvent: obj({ type: str, message: nullable(str), recipient: nullable(str), createdAt: time }),
  Email: obj(
    {
      id: str,
      status: emailStatus,
      subject: str,
      fromAddress: str,
      from: str,
      domainId: str,
      smtpResponse: nullable(str),
      attempts: int,
      createdAt: time,
      scheduledAt: nullable(time),
      sentAt: nullable(time),
      deliveredAt: nullable(time),
      messageId: str,
      replyTo: nullable(strs),
      headers: { type: ['object', 'null'] },
      tags: { type: ['object', 'null'] },
      metadata: { type: ['object', 'null'] },
      recipients: arrayOf(ref('Recipient')),
      events: { ...arrayOf(ref('EmailEvent')), description: 'Only on GET /v1/emails/{id}.' },
    },
    ['events'],
  ),
  EmailPage: page('Email'),
  // inbound-view.ts
  InboundSummary: obj({
    id: str,
    domainId: nullable(str),
    from: nullable(str),
    fromAddress: nullable(str),
    to: strs,
    cc: strs,
    subject: nullable(str),
    read: bool,
    spfResult: nullable(str),
    dkimResult: nullable(str),
    dmarcResult: nullable(str),
    authenticated: bool,
    attachmentCount: int,
    size: int,
    receivedAt: time,
  }),
  InboundAttachment: obj({
    id: str,
    filename: nullable(str),
    contentType: str,
    size: int,
    contentId: nullable(str),
    disposition: nullable(str),
  }),
  InboundMessage: {
    allOf: [
      ref('InboundSummary'),
      obj({
        mailFrom: str,
        rcptTo: strs,
        remoteIp: nullable(str),
        helo: nullable(str),
        messageId: nullable(str),
        date: nullable(str),
        text: nullable(str),
        html: { ...nullable(str), description: 'Exactly as received, unsanitised.' },
        headers: arrayOf(obj({ name: str, value: str })),
        attachments: arrayOf(ref('InboundAttachment')),
        attachmentsDropped: int,
      }),
    ],
  },
  InboundPage: page('InboundSummary'),
  Deleted: obj({ id: str, deleted: { const: true } }),
  // suppressions.usecases.ts suppressionView
  Suppression: obj({
    id: str,
    email: str,
    type: { type: 'string', enum: ['hard_bounce', 'soft_bounce', 'complaint', 'manual', 'unsubscribe'] },
    reason: nullable(str),
    sourceEmailId: nullable(str),
    createdAt: time,
  }),
  SuppressionPage: page('Suppression'),
  // webhooks.usecases.ts webhookView, attemptView
  Webhook: obj({
    id: str,
    url: str,
    events: arrayOf({ type: 'string', enum: WEBHOOK_EVENTS }),
    enabled: bool,
    disabledReason: nullable(str),
    disabledAt: nullable(time),
    consecutiveFailures: int,
    lastSuccessAt: nullable(time),
    lastFailureAt: nullable(time),
    createdAt: time,
    updatedAt: time,
  }),
  CreatedWebhook: {
    allOf: [ref('Webhook'), obj({ secret: { type: 'string', description: 'Signing secret; shown once.' } })],
  },
  WebhookAttempt: obj({
    id: str,
    deliveryId: str,
    event: str,
    attempt: int,
    succeeded: bool,
    httpStatus: nullable(int),
    error: nullable(str),
    durationMs: int,
    createdAt: time,
  }),
  WebhookDetail: {
    allOf: [ref('Webhook'), obj({ attempts: arrayOf(ref('WebhookAttempt')) })],
  },
  WebhookList: list('Webhook'),
  // settings.usecases.ts getSettings
  Settings: obj({
    account: obj({
      id: str,
      email: str,
      name: str,
      status: { type: 'string', enum: ['ACTIVE', 'SUSPENDED'] },
      createdAt: time,
    }),
    limits: obj({ emailsPerHour: limitView, emailsPerDay: limitView }),
    usage,
  }),
  // stats.usecases.ts getOverview, abuse.usecases.ts accountHealthSignals
  StatsOverview: obj({
    window: obj({
      days: int,
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date' },
    }),
    totals: obj(Object.fromEntries([...EMAIL_STATUSES, 'total'].map((s) => [s, int]))),
    rates: obj({ delivery: num, bounce: num, complaint: num, terminalMessages: int }),
    daily: arrayOf(obj({ day: { type: 'string', format: 'date' }, status: emailStatus, count: int })),
    usage,
  }),
  HealthSignals: obj({
    evaluatedAt: time,
    firing: strs,
    signals: arrayOf(
      obj({
        name: {
          type: 'string',
          enum: ['bounce_rate', 'complaint_rate', 'failure_rate', 'volume_spike', 'recipient_repetition'],
        },
        value: num,
        unit: { type: 'string', enum: ['percent', 'ratio', 'messages'] },
        threshold: num,
        window: { type: 'string', enum: ['24h', '1h'] },
        fires: bool,
        basis: { type: 'object', additionalProperties: { type: ['number', 'string', 'null'] } },
      }),
    ),
  }),
  // branding.usecases.ts BrandingView
  Branding: obj({
    logo: {
      anyOf: [obj({ url: str, contentType: str, size: int, updatedAt: time }), { type: 'null' }],
    },
    footer: obj({ html: nullable(str), text: nullable(str) }),
  }),
  // bounces/internal-bounces.routes.ts
  BounceAccepted: obj({ id: str, status: { const: 'queued' } }),
  // The document itself.
  OpenApiDocument: { type: 'object', required: ['openapi', 'info', 'paths'] },
};
