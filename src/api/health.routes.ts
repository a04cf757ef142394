import { sql } from 'kysely';
import type { QueueWait } from '../jobs/queue-stats';
import { queueWaits, STARVED_AFTER_MS } from '../jobs/queue-stats';
import { mtaProbeHost, probeSmtp } from '../mta/probe';
import { storageGuardFor } from '../shared/disk-space';
import type { ApiDeps } from '../http/context';
import type { Handler } from '../http/route';
import { RouteGroup } from '../http/route';
import { HealthView, ReadyView } from './health.responses';

interface Check {
  ok: boolean;
  error?: string;
}

async function check(fn: () => Promise<unknown>): Promise<Check> {
  try {
    await fn();
    return { ok: true };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** `queues` of /ready: not ok while a queue is starved (queue-stats.ts); undefined waits when the read failed. */
function starvation(waits: Record<string, QueueWait> | undefined): Check {
  if (waits === undefined) return { ok: false, error: 'queue waits could not be read' };
  const starved = Object.entries(waits).filter(([, w]) => w.starved);
  if (starved.length === 0) return { ok: true };
  const named = starved.map(([q, w]) => `${q} (${w.oldestRunnableSeconds} s)`).join(', ');
  return {
    ok: false,
    error: `due jobs waiting over ${STARVED_AFTER_MS / 1000} s with none of their queue running: ${named}`,
  };
}

/**
 * `/health` is liveness only. `/ready` checks the database, the queue store (the
 * job table), the free-space floor of the volumes (503 below it) and the MTA's SMTP banner; it needs no token (orchestrators call it)
 * and says only ok/not ok per dependency. `redis` mirrors `queue` for clients
 * written against the spec's sample shape. `queues` gives each queue's oldest due
 * job's wait; a starved queue (issue 28, item 4) makes the answer `degraded`.
 */
export function healthRoutes(deps: ApiDeps): RouteGroup {
  const routes = new RouteGroup(deps, '', 'Operations');

  routes.define(
    {
      method: 'get',
      path: '/health',
      auth: 'none',
      operationId: 'health',
      summary: 'Liveness; checks no dependency',
      ok: { status: 200, schema: HealthView, description: 'Alive' },
    },
    (ctx) => {
      ctx.body = { status: 'ok' };
    },
  );

  const ready: Handler = async (ctx) => {
    const [database, queue, mail, disk, waits] = await Promise.all([
      check(() => sql`select 1 as one`.execute(deps.db)),
      check(() => deps.db.selectFrom('jobs').select('id').limit(1).execute()),
      probeSmtp(mtaProbeHost(deps.config.bindAddress), deps.config.smtpPort, 2000).then((r): Check =>
        r.ok ? { ok: true } : { ok: false, error: r.error },
      ),
      // Under DISK_FREE_FLOOR_MB the appliance refuses new mail (issue 17, finding 6): not ready.
      storageGuardFor(deps.config)
        .shortage()
        .then((reason): Check => (reason === undefined ? { ok: true } : { ok: false, error: reason })),
      queueWaits(deps.db).catch(() => undefined),
    ]);
    const queues = starvation(waits);
    const storesOk = database.ok && queue.ok && disk.ok;
    const status = !storesOk ? 'unavailable' : mail.ok && queues.ok ? 'ok' : 'degraded';
    ctx.status = storesOk ? 200 : 503;
    ctx.body = { status, checks: { database, queue, redis: queue, mail, disk, queues }, queues: waits ?? {} };
  };
  routes.define(
    {
      method: 'get',
      path: '/ready',
      auth: 'none',
      operationId: 'ready',
      summary:
        'Readiness: database, queue store, free disk space, MTA, queue waits (503 `unavailable` when a store fails or a volume is under DISK_FREE_FLOOR_MB; 200 `degraded` when the MTA is down or a queue is starved)',
      ok: {
        status: 200,
        schema: ReadyView,
        description: 'Ready (`ok`) or `degraded`: the MTA is down or a queue is starved',
      },
      otherResponses: {
        '503': {
          description: '`unavailable`: the database or queue store failed, or disk space is under the floor',
          schema: ReadyView,
        },
      },
    },
    ready,
  );

  return routes;
}
