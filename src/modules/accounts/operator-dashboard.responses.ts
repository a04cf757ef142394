import { z } from 'zod';
import { pageOf, timestamp } from '../../http/response-schema';
import { OperatorAccountView } from './accounts.responses';

/** operator-accounts.ts listOperatorAccounts */
export const OperatorAccountSummary = OperatorAccountView.extend({
  volume: z.object({ last24h: z.number().int(), last30d: z.number().int() }),
  limits: z.object({ emailsPerHour: z.number().int(), emailsPerDay: z.number().int() }),
}).meta({ id: 'OperatorAccountSummary' });

export const OperatorAccountPage = pageOf(OperatorAccountSummary).meta({ id: 'OperatorAccountPage' });

/** audit.repository.ts listAuditPage */
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
  })
  .meta({ id: 'AuditEntry' });

export const AuditPage = pageOf(AuditEntryView).meta({ id: 'AuditPage' });
