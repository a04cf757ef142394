import { z } from 'zod';

export const HealthView = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

const ReadyCheck = z.object({ ok: z.boolean(), error: z.string().optional() }).meta({ id: 'ReadyCheck' });

/** GET /ready (health.routes.ts). */
export const ReadyView = z
  .object({
    status: z.enum(['ok', 'degraded', 'unavailable']),
    checks: z.object({
      database: ReadyCheck,
      queue: ReadyCheck,
      redis: ReadyCheck,
      mail: ReadyCheck,
      disk: ReadyCheck,
    }),
  })
  .meta({ id: 'Ready' });
