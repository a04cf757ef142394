import { z } from 'zod';
import { timestamp } from '../../http/response-schema';
import { QuotaUsageView } from '../quota/quota.responses';

const nullableInt = z.number().int().nullable();
const limitView = z.object({
  effective: z.number().int(),
  override: nullableInt,
  own: nullableInt,
  default: z.number().int(),
});

/** GET /v1/settings (settings.usecases.ts getSettings). */
export const SettingsView = z
  .object({
    account: z.object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      status: z.enum(['ACTIVE', 'SUSPENDED']),
      createdAt: timestamp,
    }),
    limits: z.object({ emailsPerHour: limitView, emailsPerDay: limitView }),
    usage: QuotaUsageView,
  })
  .meta({ id: 'Settings' });
