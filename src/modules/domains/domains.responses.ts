import { z } from 'zod';
import { listOf, timestamp } from '../../http/response-schema';

const domainStatus = z.enum(['PENDING', 'VERIFIED', 'FAILED']);

/** One record to publish (dns-records.ts). */
export const DnsRecordView = z
  .object({
    purpose: z.enum(['spf', 'dkim', 'dmarc', 'return_path', 'mx']),
    type: z.enum(['TXT', 'CNAME', 'MX']),
    host: z.string(),
    name: z.string(),
    value: z.string(),
    priority: z.number().int().optional().describe('MX only.'),
    ttl: z.number().int(),
    required: z.boolean(),
    description: z.string(),
    usable: z
      .boolean()
      .describe(
        'False when the record names a host of this server that is no public DNS name (MAIL_HOSTNAME unset or local): published, it cannot work.',
      ),
    unusableReason: z
      .string()
      .optional()
      .describe('Only when `usable` is false: why, and the setting to change.'),
  })
  .meta({ id: 'DnsRecord' });

/** domains.usecases.ts domainView */
export const DomainView = z
  .object({
    id: z.string(),
    domain: z.string(),
    status: domainStatus,
    records: z.array(DnsRecordView),
    receiveEnabled: z.boolean(),
    inboundLabel: z.string(),
    addresses: z.array(z.string()),
    restrictSenders: z.boolean(),
    unsubscribeLink: z.boolean().meta({
      description:
        'Delivery adds a Mailroom-served one-click List-Unsubscribe (RFC 8058) to single-recipient mail without its own',
    }),
    verifiedAt: timestamp.nullable(),
    lastCheckedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Domain' });

export const DomainList = listOf(DomainView).meta({ id: 'DomainList' });

export const DeletedDomain = z
  .object({ id: z.string(), domain: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedDomain' });

/** One check of a verification (check-result.ts). */
export const CheckResultView = z
  .object({
    verified: z.boolean(),
    code: z
      .enum([
        'MISSING_RECORD',
        'MULTIPLE_SPF_RECORDS',
        'INCLUDE_MISSING',
        'KEY_MISMATCH',
        'INVALID_RECORD',
        'LOOKUP_FAILED',
      ])
      .optional(),
    message: z.string().optional(),
    found: z.array(z.string()).optional(),
    expected: z.string().optional(),
  })
  .meta({ id: 'CheckResult' });

/** POST /v1/domains/{domainId}/verify (domain-verification.ts). */
export const VerificationView = z
  .object({
    verified: z.boolean(),
    domain: z.string(),
    status: domainStatus,
    spf: CheckResultView,
    dkim: CheckResultView,
    dmarc: CheckResultView,
    returnPath: CheckResultView,
    mx: CheckResultView.optional(),
    required: z.object({
      spf: z.boolean(),
      dkim: z.boolean(),
      dmarc: z.boolean(),
      returnPath: z.boolean(),
      mx: z.boolean().optional(),
    }),
    nextSteps: z.array(z.string()).optional(),
  })
  .meta({ id: 'Verification' });

/** domain-status-history.ts listStatusChanges */
export const DomainStatusChange = z
  .object({
    from: domainStatus.nullable().meta({ description: 'Null on the creation entry' }),
    to: domainStatus,
    trigger: z.enum(['created', 'api', 'recheck', 'migration']).meta({
      description:
        'What made the change: creation, POST verify, the background re-check, or backfilled at upgrade',
    }),
    checks: z.record(z.string(), z.string()).nullable().meta({
      description: "The verification's result per check (`pass` or its code); null for creation and backfill",
    }),
    at: timestamp,
  })
  .meta({ id: 'DomainStatusChange' });

export const DomainStatusHistory = z
  .object({ data: z.array(DomainStatusChange) })
  .meta({ id: 'DomainStatusHistory' });
