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
      queues: ReadyCheck,
    }),
    /** Per queue: how long its oldest due job has waited, what runs, whether it is starved. */
    queues: z.record(
      z.string(),
      z.object({ oldestRunnableSeconds: z.number().int(), running: z.number().int(), starved: z.boolean() }),
    ),
  })
  .meta({ id: 'Ready' });
