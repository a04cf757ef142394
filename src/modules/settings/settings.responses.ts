import { z } from 'zod';
import { timestamp } from '../../http/response-schema';
import { QuotaUsageView } from '../quota';

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
    mailHostname: z
      .object({
        name: z
          .string()
          .describe("MAIL_HOSTNAME: this server's name in its SMTP greeting and the DNS records."),
        usable: z
          .boolean()
          .describe(
            'False when it is no public fully qualified name (a single label, an IP, .local, .internal, .test, …).',
          ),
        reason: z
          .string()
          .optional()
          .describe('Only when `usable` is false: what that breaks and how to set it.'),
      })
      .describe("Whether this server's MAIL_HOSTNAME is usable for mail on the Internet."),
  })
  .meta({ id: 'Settings' });
