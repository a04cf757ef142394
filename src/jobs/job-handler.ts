import type { QueueName } from './queues';
import type { Logger } from '../shared/logger';

/** What a handler sees of a claimed job. */
export interface HandlerJob {
  readonly id: string;
  readonly queue: QueueName;
  /** Parsed JSON, unvalidated: each handler checks the shape it expects. */
  readonly payload: unknown;
  /** 1 on the first run. */
  readonly attempts: number;
  /** The attempt limit its producer gave the job. */
  readonly maxAttempts: number;
}

export interface JobContext {
  /**
   * Aborted when this runner lost the lease (it expired and the job may already run
   * elsewhere) or when shutdown gave up waiting: stop early, the outcome is not recorded.
   */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /**
   * Runs synchronous CPU work (parsing attacker input) on this job's account: if it blocks the
   * event loop past WORKER_STALL_LIMIT_MS, the stall watchdog fails this job, without retries,
   * and restarts the worker (issue 17 finding 2). Absent outside the job runner; use cpuWork().
   */
  readonly cpu?: (<T>(work: () => T) => T) | undefined;
}

/** `work()`, on the job's account when the context has a watchdog (see JobContext.cpu). */
export function cpuWork<T>(ctx: JobContext, work: () => T): T {
  return ctx.cpu ? ctx.cpu(work) : work();
}

/**
 * Resolving completes the job. Throwing fails this attempt: it is retried with
 * backoff while attempts remain, unless the error is a PermanentJobError, which
 * ends the job `failed` at once. Jobs are at-least-once, so a handler must be
 * idempotent: a worker can die after the effect and before the completion commits.
 */
export type JobHandler = (job: HandlerJob, ctx: JobContext) => Promise<void>;

/** One handler per queue; a queue without one is not claimed by this worker. */
export type HandlerRegistry = Readonly<Partial<Record<QueueName, JobHandler>>>;

const BRAND = Symbol.for('mailroom.permanent-job-error');
const RELEASE_BRAND = Symbol.for('mailroom.release-job');

/**
 * "Do not retry": a failure no later attempt can fix (a malformed payload, a
 * message whose account is gone, a 5xx from the peer). Told apart by its brand,
 * not instanceof, like AppError, since it may be thrown from another realm.
 */
export class PermanentJobError extends Error {
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export function isPermanentJobError(error: unknown): error is PermanentJobError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * "Not yet": the handler did nothing it must redo and wants the job run again at `runAt`,
 * without an attempt spent (release.ts). Not a failure: the job is not retried with backoff and
 * no `job_failed` is logged. Branded like PermanentJobError.
 */
export class ReleaseJob extends Error {
  readonly [RELEASE_BRAND] = true;

  constructor(
    readonly runAt: Date,
    reason: string,
  ) {
    super(reason);
    this.name = 'ReleaseJob';
  }
}

export function isReleaseJob(error: unknown): error is ReleaseJob {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[RELEASE_BRAND] === true &&
    (error as { runAt?: unknown }).runAt instanceof Date
  );
}
