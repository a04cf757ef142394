import type { WriteBatcher } from '../db/write-batcher';
import type { BackoffPolicy } from '../jobs/backoff';
import type { ClaimedJob } from '../jobs/claim';
import { complete } from '../jobs/complete';
import { describeError, fail } from '../jobs/fail';
import type { JobContext, JobHandler } from '../jobs/job-handler';
import { isPermanentJobError, isReleaseJob, PermanentJobError } from '../jobs/job-handler';
import { release } from '../jobs/release';
import type { Logger } from '../shared/logger';

/** What recording a job's outcome needs: the runner's group commit, lease owner and policy. */
export interface SettlementDeps {
  readonly writes: WriteBatcher;
  readonly owner: string;
  readonly logger: Logger;
  readonly backoff: BackoffPolicy | undefined;
  /** After the runner stopped the database may be gone: outcomes are only logged. */
  readonly closed: () => boolean;
}

/** Runs the job's handler with its parsed payload; a job no handler can run fails permanently. */
export async function invokeHandler(
  handler: JobHandler | undefined,
  job: ClaimedJob,
  ctx: JobContext,
): Promise<void> {
  // Claims only cover queues with a handler; a missing one means the registry changed under us.
  if (!handler) throw new PermanentJobError(`no handler for queue ${job.queue}`);
  let payload: unknown;
  try {
    payload = JSON.parse(job.payloadJson);
  } catch (err) {
    throw new PermanentJobError('job payload is not valid JSON', { cause: err });
  }
  await handler(
    { id: job.id, queue: job.queue, payload, attempts: job.attempts, maxAttempts: job.maxAttempts },
    ctx,
  );
}

/** Records a handler's success under the lease; never rejects (every outcome ends in a log line). */
export async function settleSuccess(deps: SettlementDeps, job: ClaimedJob, startedAt: number): Promise<void> {
  const { logger } = deps;
  if (deps.closed()) return;
  try {
    if (await deps.writes.run((trx) => complete(trx, job, deps.owner))) {
      logger.debug({
        event: 'job_succeeded',
        queue: job.queue,
        id: job.id,
        attempts: job.attempts,
        ms: Date.now() - startedAt,
      });
    } else {
      logger.warn({ event: 'job_lease_lost', queue: job.queue, id: job.id, attempts: job.attempts });
    }
  } catch (err) {
    logger.error({ event: 'job_settle_failed', queue: job.queue, id: job.id, err });
  }
}

/**
 * Records a handler's failure under the lease: a retry with backoff, or dead when it was
 * permanent or out of attempts. Never rejects.
 */
export async function settleFailure(deps: SettlementDeps, job: ClaimedJob, err: unknown): Promise<void> {
  const { logger } = deps;
  if (isReleaseJob(err)) return settleRelease(deps, job, err.runAt, err.message);
  const permanent = isPermanentJobError(err);
  const error = describeError(err);
  const base = { queue: job.queue, id: job.id, attempts: job.attempts };
  logger.warn({ event: 'job_failed', ...base, error, permanent });
  if (deps.closed()) return;
  try {
    const result = await deps.writes.run((trx) =>
      fail(trx, job, deps.owner, err, { retryable: !permanent, backoff: deps.backoff }),
    );
    if (result.outcome === 'retry') {
      logger.info({
        event: 'job_retry_scheduled',
        ...base,
        runAt: result.runAt,
        delayMs: result.delayMs,
      });
    } else if (result.outcome === 'dead') {
      const reason = permanent ? 'permanent' : 'attempts_exhausted';
      logger.error({ event: 'job_dead', ...base, maxAttempts: job.maxAttempts, reason, error });
    } else {
      logger.warn({ event: 'job_lease_lost', ...base });
    }
  } catch (settleErr) {
    logger.error({ event: 'job_settle_failed', ...base, err: settleErr });
  }
}

/** A handler's ReleaseJob: back to `queued` at `runAt`, no attempt spent. Never rejects. */
async function settleRelease(
  deps: SettlementDeps,
  job: ClaimedJob,
  runAt: Date,
  reason: string,
): Promise<void> {
  const { logger } = deps;
  const base = { queue: job.queue, id: job.id, attempts: job.attempts };
  if (deps.closed()) return;
  try {
    if (await deps.writes.run((trx) => release(trx, job, deps.owner, runAt))) {
      logger.debug({ event: 'job_released', ...base, runAt: runAt.toISOString(), reason });
    } else {
      logger.warn({ event: 'job_lease_lost', ...base });
    }
  } catch (err) {
    logger.error({ event: 'job_settle_failed', ...base, err });
  }
}
