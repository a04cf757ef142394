import { z } from 'zod';
import { EMAIL_STATUSES } from '../../db/schema';
import { day, timestamp } from '../../http/response-schema';
import { QuotaUsageView } from '../quota';

const count = z.number().int();

/** GET /v1/stats/overview (stats.usecases.ts getOverview). */
export const StatsOverview = z
  .object({
    window: z.object({ days: count, from: day, to: day }),
    totals: z.object(Object.fromEntries([...EMAIL_STATUSES, 'total'].map((s) => [s, count]))),
    rates: z.object({
      delivery: z.number(),
      bounce: z.number(),
      complaint: z.number(),
      terminalMessages: count,
    }),
    daily: z.array(z.object({ day, status: z.enum(EMAIL_STATUSES), count })),
    usage: QuotaUsageView,
  })
  .meta({ id: 'StatsOverview' });

/** GET /v1/stats/health-signals (abuse.usecases.ts accountHealthSignals). */
export const HealthSignals = z
  .object({
    evaluatedAt: timestamp,
    firing: z.array(z.string()),
    signals: z.array(
      z.object({
        name: z.enum([
          'bounce_rate',
          'complaint_rate',
          'failure_rate',
          'volume_spike',
          'recipient_repetition',
        ]),
        value: z.number(),
        unit: z.enum(['percent', 'ratio', 'messages']),
        threshold: z.number(),
        window: z.enum(['24h', '1h']),
        fires: z.boolean(),
        basis: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
      }),
    ),
  })
  .meta({ id: 'HealthSignals' });
