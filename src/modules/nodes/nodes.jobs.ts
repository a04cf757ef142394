import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { EnqueueResult } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import type { JobHandler } from '../../jobs/job-handler';
import { handBackSilentNodes } from './hand-back';

export const NODE_SWEEP_QUEUE = 'node-sweep';
/**
 * Once a minute: a silent node's mail waits NODE_DEAD_AFTER_S plus at most this.
 * One job per slot for the whole cluster (the dedupe key), whichever worker seeds it.
 */
export const NODE_SWEEP_INTERVAL_MS = 60_000;

/** Enqueues the sweep of the slot `now` falls in, or of the next one. */
export async function scheduleNodeSweep(
  db: Kysely<Database>,
  options: { readonly now?: Date | undefined; readonly slot?: 'current' | 'next' } = {},
): Promise<EnqueueResult> {
  const index =
    Math.floor((options.now ?? new Date()).getTime() / NODE_SWEEP_INTERVAL_MS) +
    (options.slot === 'next' ? 1 : 0);
  const runAt = new Date(index * NODE_SWEEP_INTERVAL_MS);
  return enqueue(db, {
    queue: NODE_SWEEP_QUEUE,
    payload: { slot: runAt.toISOString() },
    runAt,
    dedupeKey: `sweep:${runAt.toISOString()}`,
    maxAttempts: 3,
  });
}

/**
 * `node-sweep`: chains the next slot first (a failing run does not end the schedule),
 * then hands back the mail of nodes silent for NODE_DEAD_AFTER_S (hand-back.ts).
 */
export function createNodeSweepHandler(deps: {
  readonly db: Kysely<Database>;
  readonly config: Pick<AppConfig, 'nodeName' | 'nodeDeadAfterS'>;
  /** Tests move time here; default the clock. */
  readonly now?: (() => Date) | undefined;
}): JobHandler {
  return async (_job, ctx) => {
    const now = deps.now?.() ?? new Date();
    await scheduleNodeSweep(deps.db, { now, slot: 'next' });
    const handedBack = await handBackSilentNodes({
      db: deps.db,
      self: deps.config.nodeName,
      deadAfterS: deps.config.nodeDeadAfterS,
      now,
    });
    const log = ctx.logger.child({ module: 'nodes' });
    for (const h of handedBack) {
      log.warn(
        { event: 'node_mail_handed_back', silentNode: h.node, lastSeenAt: h.lastSeenAt, emails: h.emails },
        'a silent node held undelivered mail: handed back to the queue',
      );
    }
  };
}
