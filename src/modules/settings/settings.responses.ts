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
    mx: z
      .object({
        host: z.string().describe('MX_HOST: the name the MX records of receiving domains point to.'),
        port: z
          .number()
          .int()
          .describe(
            'SMTP_PORT: the port this server’s MX listens on (2525 by default, 25 in the image), for trying inbound mail against it directly.',
          ),
      })
      .describe('Where this server receives mail (docs/inbound.md, Try it before publishing the MX).'),
  })
  .meta({ id: 'Settings' });
