import type { z } from 'zod';
import {
  changePasswordBody,
  loginBody,
  operatorLimitsBody,
  registerBody,
  suspendBody,
} from '../modules/accounts/accounts.schemas';
import { createBody as createApiKeyBody } from '../modules/api-keys/api-keys.routes';
import { footerBody } from '../modules/branding/branding.routes';
import { createDomainBody, patchDomainBody } from '../modules/domains/domains.schemas';
import { listEmailsQuery, sendEmailBody } from '../modules/emails/emails.schemas';
import { listInboundQuery, patchInboundBody } from '../modules/inbound/inbound.schemas';
import { limitsBody } from '../modules/settings/settings.routes';
import { overviewQuery } from '../modules/stats/stats.routes';
import {
  createBody as createSuppressionBody,
  listQuery as listSuppressionsQuery,
} from '../modules/suppressions/suppressions.routes';
import { createWebhookBody, patchWebhookBody } from '../modules/webhooks/webhooks.schemas';

/**
 * Who may call: an API key or a session (`either`), a session only (key
 * management), the operator's `X-Internal-Token`, or anyone.
 */
export type Access = 'either' | 'session' | 'internal' | 'none';

export interface Operation {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI template: `{name}` for each router `:name`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly access: Access;
  /** The zod schema the route validates its JSON body with. */
  readonly body?: z.ZodType;
  /** A body that is not JSON (image, raw report). */
  readonly rawBody?: { readonly contentType: string; readonly description: string };
  /** The zod object the route validates its query string with. */
  readonly query?: z.ZodObject;
  readonly ok: {
    readonly status: number;
    readonly description: string;
    /** A components.schemas name; JSON unless `contentType` says otherwise. */
    readonly schema?: string;
    readonly contentType?: string;
  };
  /** Error codes this route raises besides those implied by access, body and query. */
  readonly errors: readonly string[];
  /** Request headers the route reads, by name. */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** Headers of the success response, by name. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /** Non-error responses besides `ok` (304, the 503 of /ready). */
  readonly otherResponses?: Readonly<
    Record<string, { readonly description: string; readonly schema?: string }>
  >;
}

const json = (status: number, schema: string, description: string) => ({ status, schema, description });

type Extra = Pick<
  Operation,
  'body' | 'rawBody' | 'query' | 'requestHeaders' | 'responseHeaders' | 'otherResponses'
> & { readonly errors?: readonly string[] };

function op(
  method: Operation['method'],
  path: string,
  operationId: string,
  access: Access,
  summary: string,
  ok: Operation['ok'],
  extra: Extra = {},
): Omit<Operation, 'tag'> {
  return { method, path, operationId, access, summary, ok, ...extra, errors: extra.errors ?? [] };
}

const tagged = (tag: string, ops: readonly Omit<Operation, 'tag'>[]): Operation[] =>
  ops.map((o) => ({ ...o, tag }));

/** Every route the api's routers register (the test compares this list with the routers). */
export const OPERATIONS: readonly Operation[] = [
  ...tagged('Operations', [
    op('get', '/health', 'health', 'none', 'Liveness; checks no dependency', json(200, 'Health', 'Alive')),
    op(
      'get',
      '/ready',
      'ready',
      'none',
      'Readiness: database, queue store, free disk space, MTA (503 `unavailable` when a store fails or a volume is under DISK_FREE_FLOOR_MB; 200 `degraded` when only the MTA is down)',
      json(200, 'Ready', 'Ready (`ok`) or `degraded`: only the MTA is down'),
      {
        otherResponses: {
          '503': {
            description:
              '`unavailable`: the database or queue store failed, or disk space is under the floor',
            schema: 'Ready',
          },
        },
      },
    ),
    op('get', '/metrics', 'metrics', 'internal', 'Prometheus text exposition', {
      status: 200,
      description: 'Metrics',
      contentType: 'text/plain',
    }),
    op(
      'get',
      '/openapi.json',
      'openapi',
      'none',
      'This document',
      json(200, 'OpenApiDocument', 'The OpenAPI 3.1 document'),
    ),
  ]),
  ...tagged('Account', [
    op(
      'post',
      '/v1/auth/register',
      'register',
      'none',
      'Create an account; answers a session token',
      json(201, 'Session', 'Registered'),
      { errors: ['EMAIL_ALREADY_REGISTERED'], body: registerBody },
    ),
    op(
      'post',
      '/v1/auth/login',
      'login',
      'none',
      'Exchange email and password for a session token',
      json(200, 'Session', 'Logged in'),
      { errors: ['INVALID_CREDENTIALS', 'ACCOUNT_SUSPENDED'], body: loginBody },
    ),
    op('get', '/v1/auth/me', 'me', 'either', 'The calling account', json(200, 'Me', 'The account')),
    op(
      'post',
      '/v1/auth/change-password',
      'changePassword',
      'either',
      'Change the password; ends every earlier session and answers a fresh one',
      json(200, 'Session', 'Changed'),
      { errors: ['INVALID_CREDENTIALS'], body: changePasswordBody },
    ),
    op(
      'get',
      '/v1/settings',
      'getSettings',
      'either',
      'Account, limits (effective, override, default) and usage',
      json(200, 'Settings', 'Settings'),
    ),
    op(
      'patch',
      '/v1/settings/limits',
      'lowerLimits',
      'either',
      'Lower the account’s own sending limits (`null` returns to the default)',
      json(200, 'Settings', 'Updated settings'),
      { errors: ['FORBIDDEN'], body: limitsBody },
    ),
  ]),
  ...tagged('API keys', [
    op(
      'post',
      '/v1/api-keys',
      'createApiKey',
      'session',
      'Create an API key (session token only); the token is shown once',
      json(201, 'CreatedApiKey', 'Created'),
      { body: createApiKeyBody },
    ),
    op(
      'get',
      '/v1/api-keys',
      'listApiKeys',
      'either',
      'List the account’s keys (never their tokens)',
      json(200, 'ApiKeyList', 'Keys'),
    ),
    op(
      'delete',
      '/v1/api-keys/{keyId}',
      'revokeApiKey',
      'session',
      'Revoke a key (session token only); effective immediately',
      json(200, 'ApiKey', 'The revoked key'),
      { errors: ['API_KEY_NOT_FOUND'] },
    ),
  ]),
  ...tagged('Domains', [
    op(
      'post',
      '/v1/domains',
      'createDomain',
      'either',
      'Add a sending domain; answers the DNS records to publish',
      json(201, 'Domain', 'Added (status PENDING)'),
      { errors: ['INVALID_DOMAIN', 'DOMAIN_ALREADY_EXISTS'], body: createDomainBody },
    ),
    op(
      'get',
      '/v1/domains',
      'listDomains',
      'either',
      'List the account’s domains',
      json(200, 'DomainList', 'Domains'),
    ),
    op(
      'get',
      '/v1/domains/{domainId}',
      'getDomain',
      'either',
      'One domain with its records',
      json(200, 'Domain', 'The domain'),
      { errors: ['DOMAIN_NOT_FOUND'] },
    ),
    op(
      'patch',
      '/v1/domains/{domainId}',
      'updateDomain',
      'either',
      'Receiving and sender settings',
      json(200, 'Domain', 'Updated domain'),
      { errors: ['DOMAIN_NOT_FOUND'], body: patchDomainBody },
    ),
    op(
      'delete',
      '/v1/domains/{domainId}',
      'deleteDomain',
      'either',
      'Delete a domain that has never sent mail',
      json(200, 'DeletedDomain', 'Deleted'),
      { errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_HAS_HISTORY'] },
    ),
    op(
      'post',
      '/v1/domains/{domainId}/verify',
      'verifyDomain',
      'either',
      'Check the published records now; SPF and DKIM passing makes the domain VERIFIED',
      json(200, 'Verification', 'The verification result (also when not verified)'),
      { errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_VERIFIED_ELSEWHERE'] },
    ),
  ]),
  ...tagged('Emails', [
    op(
      'post',
      '/v1/emails',
      'sendEmail',
      'either',
      'Queue a message (202 once durably queued; not delivered)',
      json(202, 'SendAccepted', 'Queued'),
      {
        requestHeaders: {
          'Idempotency-Key':
            '1–255 visible ASCII characters: the same key and body within 24 h answers the original 202 and creates nothing',
        },
        responseHeaders: {
          'X-RateLimit-Limit': 'The account’s hourly allowance (recipients)',
          'X-RateLimit-Remaining': 'What is left of it',
          'X-RateLimit-Limit-Day': 'The daily allowance',
          'X-RateLimit-Remaining-Day': 'What is left of it',
          'Idempotent-Replayed':
            '`true` when this is the stored answer to an earlier request with the same key',
        },
        errors: [
          'DOMAIN_NOT_FOUND',
          'DOMAIN_NOT_VERIFIED',
          'INVALID_FROM_ADDRESS',
          'INVALID_RECIPIENT',
          'TOO_MANY_RECIPIENTS',
          'SUPPRESSED_RECIPIENT',
          'EMAIL_TOO_LARGE',
          'IDEMPOTENCY_KEY_REUSED',
          'SENDING_LIMIT_EXCEEDED',
          'EMAIL_QUEUE_FAILED',
        ],
        body: sendEmailBody,
      },
    ),
    op(
      'get',
      '/v1/emails',
      'listEmails',
      'either',
      'List messages, newest first (keyset pages)',
      json(200, 'EmailPage', 'A page of messages (no events)'),
      { query: listEmailsQuery },
    ),
    op(
      'get',
      '/v1/emails/{id}',
      'getEmail',
      'either',
      'One message with recipients and events',
      json(200, 'Email', 'The message'),
      { errors: ['EMAIL_NOT_FOUND'] },
    ),
    op(
      'post',
      '/v1/emails/{id}/cancel',
      'cancelEmail',
      'either',
      'Cancel a message still queued (typically scheduled)',
      json(200, 'Email', 'The cancelled message'),
      { errors: ['EMAIL_NOT_FOUND', 'EMAIL_NOT_CANCELLABLE'] },
    ),
  ]),
  ...tagged('Inbound', [
    op(
      'get',
      '/v1/inbound',
      'listInbound',
      'either',
      'List received messages, newest first',
      json(200, 'InboundPage', 'A page of message summaries'),
      { query: listInboundQuery },
    ),
    op(
      'get',
      '/v1/inbound/{id}',
      'getInbound',
      'either',
      'One received message; marks it read',
      json(200, 'InboundMessage', 'The message'),
      { errors: ['EMAIL_NOT_FOUND'] },
    ),
    op(
      'patch',
      '/v1/inbound/{id}',
      'markInbound',
      'either',
      'Mark read or unread',
      json(200, 'InboundMessage', 'The message'),
      { errors: ['EMAIL_NOT_FOUND'], body: patchInboundBody },
    ),
    op(
      'delete',
      '/v1/inbound/{id}',
      'deleteInbound',
      'either',
      'Delete a received message and its attachments',
      json(200, 'Deleted', 'Deleted'),
      { errors: ['EMAIL_NOT_FOUND'] },
    ),
    op(
      'get',
      '/v1/inbound/{id}/attachments/{attachmentId}',
      'getInboundAttachment',
      'either',
      'An attachment’s bytes (`Content-Disposition: attachment`, nosniff)',
      { status: 200, description: 'The file', contentType: 'application/octet-stream' },
      { errors: ['EMAIL_NOT_FOUND', 'ATTACHMENT_NOT_FOUND'] },
    ),
    op(
      'get',
      '/v1/inbound/{id}/raw',
      'getInboundRaw',
      'either',
      'The original message bytes',
      {
        status: 200,
        description: 'The message as received',
        contentType: 'message/rfc822',
      },
      { errors: ['EMAIL_NOT_FOUND'] },
    ),
  ]),
  ...tagged('Suppressions', [
    op(
      'get',
      '/v1/suppressions',
      'listSuppressions',
      'either',
      'List the account’s suppressed addresses',
      json(200, 'SuppressionPage', 'A page of suppressions'),
      { query: listSuppressionsQuery },
    ),
    op(
      'post',
      '/v1/suppressions',
      'createSuppression',
      'either',
      'Suppress an address',
      json(201, 'Suppression', 'Created'),
      { errors: ['SUPPRESSION_ALREADY_EXISTS'], body: createSuppressionBody },
    ),
    op(
      'delete',
      '/v1/suppressions/{id}',
      'deleteSuppression',
      'either',
      'Remove a suppression',
      json(200, 'Deleted', 'Removed'),
      { errors: ['SUPPRESSION_NOT_FOUND'] },
    ),
  ]),
  ...tagged('Webhooks', [
    op(
      'post',
      '/v1/webhooks',
      'createWebhook',
      'either',
      'Register an endpoint; the signing secret is shown once',
      json(201, 'CreatedWebhook', 'Created'),
      { errors: ['WEBHOOK_LIMIT_REACHED'], body: createWebhookBody },
    ),
    op(
      'get',
      '/v1/webhooks',
      'listWebhooks',
      'either',
      'List endpoints',
      json(200, 'WebhookList', 'Endpoints'),
    ),
    op(
      'get',
      '/v1/webhooks/{id}',
      'getWebhook',
      'either',
      'One endpoint with its last 25 delivery attempts',
      json(200, 'WebhookDetail', 'The endpoint'),
      { errors: ['WEBHOOK_NOT_FOUND'] },
    ),
    op(
      'patch',
      '/v1/webhooks/{id}',
      'updateWebhook',
      'either',
      'Change url, events or enabled (re-enabling resets the failure count)',
      json(200, 'Webhook', 'Updated'),
      { errors: ['WEBHOOK_NOT_FOUND'], body: patchWebhookBody },
    ),
    op(
      'delete',
      '/v1/webhooks/{id}',
      'deleteWebhook',
      'either',
      'Delete an endpoint',
      json(200, 'Deleted', 'Deleted'),
      { errors: ['WEBHOOK_NOT_FOUND'] },
    ),
  ]),
  ...tagged('Statistics', [
    op(
      'get',
      '/v1/stats/overview',
      'statsOverview',
      'either',
      'Counts by status, rates and quota usage over the last `days` UTC days',
      json(200, 'StatsOverview', 'Overview'),
      { query: overviewQuery },
    ),
    op(
      'get',
      '/v1/stats/health-signals',
      'healthSignals',
      'either',
      'The calling account’s abuse signals, computed now',
      json(200, 'HealthSignals', 'Signals'),
    ),
  ]),
  ...tagged('Branding', [
    op(
      'get',
      '/v1/branding',
      'getBranding',
      'either',
      'The account’s logo and footer',
      json(200, 'Branding', 'Branding'),
    ),
    op(
      'put',
      '/v1/branding/logo',
      'uploadLogo',
      'either',
      'Upload the logo (PNG, JPEG or SVG, at most 512 KiB); the body is the image',
      json(200, 'Branding', 'Branding'),
      {
        errors: ['INVALID_LOGO', 'LOGO_TOO_LARGE'],
        rawBody: { contentType: 'image/*', description: 'The image bytes (`curl --data-binary @logo.png`)' },
      },
    ),
    op(
      'delete',
      '/v1/branding/logo',
      'deleteLogo',
      'either',
      'Remove the logo',
      json(200, 'Branding', 'Branding'),
      { errors: ['LOGO_NOT_FOUND'] },
    ),
    op(
      'put',
      '/v1/branding/footer',
      'setFooter',
      'either',
      'Replace the footer added to outgoing mail (`{{logo_url}}` allowed)',
      json(200, 'Branding', 'Branding'),
      { body: footerBody },
    ),
    op(
      'get',
      '/public/branding/{ownerId}/logo',
      'publicLogo',
      'none',
      'An account’s logo for mail clients (no token; ETag, 304 on If-None-Match)',
      { status: 200, description: 'The image', contentType: 'image/*' },
      {
        errors: ['LOGO_NOT_FOUND'],
        otherResponses: { '304': { description: 'Not modified (ETag matched)' } },
      },
    ),
  ]),
  ...tagged('Operator', [
    op(
      'post',
      '/internal/accounts/{id}/suspend',
      'suspendAccount',
      'internal',
      'Suspend an account (`{id}`: account id or email); stops its queued mail',
      json(200, 'OperatorAccount', 'The account'),
      { errors: ['ACCOUNT_NOT_FOUND'], body: suspendBody },
    ),
    op(
      'post',
      '/internal/accounts/{id}/reinstate',
      'reinstateAccount',
      'internal',
      'Reinstate a suspended account',
      json(200, 'OperatorAccount', 'The account'),
      { errors: ['ACCOUNT_NOT_FOUND'] },
    ),
    op(
      'patch',
      '/internal/accounts/{id}/limits',
      'setAccountLimits',
      'internal',
      'Set an account’s sending limits (may raise above the default; `null` = default)',
      json(200, 'OperatorAccount', 'The account'),
      { errors: ['ACCOUNT_NOT_FOUND'], body: operatorLimitsBody },
    ),
    op(
      'post',
      '/internal/bounces',
      'submitBounceReport',
      'internal',
      'Submit a raw bounce or complaint report (DSN, ARF); 202 once stored and queued',
      json(202, 'BounceAccepted', 'Queued for processing'),
      {
        errors: ['PAYLOAD_TOO_LARGE'],
        rawBody: { contentType: 'message/rfc822', description: 'The raw report, any content type' },
      },
    ),
  ]),
];
