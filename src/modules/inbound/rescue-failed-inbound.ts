import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { WriteBatcher } from '../../db/write-batcher';
import type { Logger } from '../../shared/logger';
import { parseInboundPayload, storeUnparsed } from './inbound.job';
import { accountExists, findInboundIdByRawPath, listFailedInboundJobs } from './inbound.repository';
import type { InboundIntakePayload } from './intake-payload';

/** Why a rescued message has no parsed fields (see {@link rescueFailedInbound}). */
export const STOPPED_REASON = 'processing stopped before the message was stored';
/** Failed jobs looked at per rescue run, newest first. */
const RESCUE_BATCH = 500;

/**
 * Stores unparsed the messages of `inbound-processing` jobs that ended `failed` without
 * their message row: jobs the handler could not settle itself (the stall watchdog failed
 * the job and killed the worker; the worker died on the job's last attempt and the lease
 * expired; the database was down even for the unparsed store). Run at worker start and
 * with every retention run; idempotent (a job whose message exists is skipped, and a
 * concurrent rescue on another node loses on the unique raw reference). A malformed
 * payload names nothing to store; an account deleted meanwhile has no one to show it to.
 */
export async function rescueFailedInbound(deps: {
  readonly db: Kysely<Database>;
  readonly writes: Pick<WriteBatcher, 'run'>;
  readonly logger: Logger;
}): Promise<number> {
  const failed = await listFailedInboundJobs(deps.db, RESCUE_BATCH);
  let rescued = 0;
  for (const job of failed) {
    let payload: InboundIntakePayload;
    try {
      payload = parseInboundPayload(JSON.parse(job.payload));
    } catch {
      continue;
    }
    if ((await findInboundIdByRawPath(deps.db, payload.rawPath)) !== undefined) continue;
    if (!(await accountExists(deps.db, payload.userId))) continue;
    try {
      const outcome = await storeUnparsed(deps, payload, STOPPED_REASON);
      if (outcome.kind !== 'unparsed') continue;
      rescued++;
      deps.logger.warn(
        { event: 'inbound_unparsed', inboundId: outcome.inboundId, jobId: job.id, reason: STOPPED_REASON },
        'inbound message of a failed job stored unparsed',
      );
    } catch (err) {
      deps.logger.error({ event: 'inbound_rescue_failed', jobId: job.id, err });
    }
  }
  return rescued;
}
