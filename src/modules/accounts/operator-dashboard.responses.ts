import { z } from 'zod';
import { pageOf, timestamp } from '../../http/response-schema';
import { OperatorAccountView } from './accounts.responses';

/** operator-accounts.ts listOperatorAccounts */
export const OperatorAccountSummary = OperatorAccountView.extend({
  volume: z.object({ last24h: z.number().int(), last30d: z.number().int() }),
  limits: z.object({ emailsPerHour: z.number().int(), emailsPerDay: z.number().int() }),
}).meta({ id: 'OperatorAccountSummary' });

export const OperatorAccountPage = pageOf(OperatorAccountSummary).meta({ id: 'OperatorAccountPage' });

/** audit.repository.ts listAuditPage, named by audit-names.repository.ts withAuditNames */
export const AuditEntryView = z
  .object({
    id: z.string(),
    userId: z.string().nullable(),
    actorType: z.enum(['user', 'api_key', 'operator', 'system', 'anonymous']),
    actorId: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    action: z.string(),
    resource: z.string(),
    resourceId: z.string().nullable(),
    details: z.unknown(),
    createdAt: timestamp,
    // The names of the ids above, for people (audit-names.repository.ts); null when none is known.
    actorEmail: z.string().nullable().describe('The acting account (user, or operator signed in): its email'),
    actorKeyName: z.string().nullable().describe('The acting API key: its name'),
    accountEmail: z.string().nullable().describe('The account the entry belongs to: its email'),
    resourceName: z
      .string()
      .nullable()
      .describe('The resource: an account’s email, a domain, a key’s name, a webhook’s URL, an address'),
  })
  .meta({ id: 'AuditEntry' });

export const AuditPage = pageOf(AuditEntryView).meta({ id: 'AuditPage' });
