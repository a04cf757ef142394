import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Logger } from '../../shared/logger';
import { beat } from './nodes.repository';

/** How often each process of a node heartbeats; NODE_DEAD_AFTER_S is at least 30 s, ten beats. */
export const HEARTBEAT_INTERVAL_MS = 3_000;

/** A gap this long between beats means the node was gone and came back: started_at restarts. */
const RESTART_GAP_MS = 5 * HEARTBEAT_INTERVAL_MS;

export interface HeartbeatOptions {
  readonly db: Kysely<Database>;
  readonly node: string;
  readonly roles: readonly string[];
  readonly logger: Logger;
  readonly intervalMs?: number | undefined;
}

export interface RunningHeartbeat {
  stop(): void;
}

/** One beat now (the node's row is fresh before its process does anything else). */
export async function heartbeatOnce(
  options: Pick<HeartbeatOptions, 'db' | 'node' | 'roles'>,
  now = new Date(),
): Promise<void> {
  await beat(options.db, {
    name: options.node,
    roles: options.roles.join(','),
    at: now.toISOString(),
    restartedIfSeenBefore: new Date(now.getTime() - RESTART_GAP_MS).toISOString(),
  });
}

/**
 * Beats at once, then every `intervalMs` (issue 23 item 3: the cluster sweep hands a
 * silent node's mail back). Awaited once at start, so a worker's sweep never finds its
 * own node silent after a long stop. A failed beat is logged and the next one tried:
 * a database that is briefly unreachable must not stop the process.
 */
export async function startHeartbeat(options: HeartbeatOptions): Promise<RunningHeartbeat> {
  await heartbeatOnce(options);
  const log = options.logger.child({ module: 'nodes' });
  let failing = false;
  const timer = setInterval(() => {
    heartbeatOnce(options).then(
      () => {
        if (failing) log.info({ event: 'node_heartbeat_recovered', node: options.node });
        failing = false;
      },
      (err: unknown) => {
        if (!failing) log.warn({ event: 'node_heartbeat_failed', node: options.node, err });
        failing = true;
      },
    );
  }, options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
