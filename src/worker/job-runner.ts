import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { WriteBatcher } from '../db/write-batcher';
import type { BackoffPolicy } from '../jobs/backoff';
import type { ClaimedJob, ClaimResult } from '../jobs/claim';
import { claim, hasClaimable } from '../jobs/claim';
import { complete } from '../jobs/complete';
import { extendLease } from '../jobs/extend-lease';
import { describeError, fail } from '../jobs/fail';
import type { QueueName } from '../jobs/queues';
import { randomToken } from '../shared/ids';
import type { Logger } from '../shared/logger';
import type { HandlerRegistry, JobContext, JobHandler } from '../jobs/job-handler';
import { isPermanentJobError, PermanentJobError } from '../jobs/job-handler';
import type { StallWatchdogOptions } from './stall-watchdog';
import { StallWatchdog } from './stall-watchdog';

export interface JobRunnerOptions {
  readonly db: Kysely<Database>;
  readonly handlers: HandlerRegistry;
  readonly logger: Logger;
  /** Written to lease_owner; unique per runner by default. */
  readonly owner?: string | undefined;
  /** How long a claim is good for; renewed every third of it while the handler runs. */
  readonly leaseMs?: number | undefined;
  /** Handlers running at once. */
  readonly concurrency?: number | undefined;
  /** Sleep between polls when nothing was due; wake() cuts it short. */
  readonly idleMs?: number | undefined;
  readonly backoff?: BackoffPolicy | undefined;
  /**
   * Group commit for claims and settlements (and, when the handlers share it, their
   * own writes): what is submitted while one commit is in flight shares the next.
   * Default: one of the runner's own over `db`.
   */
  readonly writes?: WriteBatcher | undefined;
  /** Fail a job that blocks the event loop and restart the worker (see stall-watchdog.ts). */
  readonly stallWatchdog?: StallWatchdogOptions | undefined;
}

export interface StopResult {
  /** Handlers still running at the deadline; their jobs return through lease expiry. */
  readonly abandoned: number;
}

interface InFlight {
  readonly job: ClaimedJob;
  readonly controller: AbortController;
  /** Set once the handler returned: from then on a failed lease renewal is not a lost lease. */
  settling: boolean;
  done: Promise<void>;
}

/** A failed claim (database locked past busy_timeout, disk full) is retried after this pause. */
const CLAIM_ERROR_PAUSE_MS = 1_000;

/**
 * Claims jobs for the queues that have a handler, runs them with bounded
 * concurrency, and records each outcome under the lease it was claimed with.
 * Stopping stops claiming, waits for running handlers up to a deadline, and
 * leaves the rest to lease expiry: a job is never settled by a runner that
 * cannot prove it still holds it.
 */
export class JobRunner {
  readonly owner: string;
  readonly queues: readonly QueueName[];
  private readonly db: Kysely<Database>;
  private readonly handlers: HandlerRegistry;
  private readonly logger: Logger;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly idleMs: number;
  private readonly backoff: BackoffPolicy | undefined;
  private readonly writes: WriteBatcher;
  private readonly inFlight = new Set<InFlight>();
  private stopping = false;
  /** After stop: the database may be gone, so late handlers no longer write. */
  private closed = false;
  private woken = false;
  private wakeSleeper: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeating = false;
  private readonly watchdogOptions: StallWatchdogOptions | undefined;
  private watchdog: StallWatchdog | undefined;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.handlers = options.handlers;
    this.logger = options.logger;
    this.owner = options.owner ?? `${os.hostname()}/${process.pid}/${randomToken(6)}`;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.idleMs = options.idleMs ?? 100;
    this.backoff = options.backoff;
    this.writes = options.writes ?? new WriteBatcher(this.db);
    this.watchdogOptions = options.stallWatchdog;
    this.queues = (Object.keys(this.handlers) as QueueName[]).filter((q) => this.handlers[q] !== undefined);
  }

  start(): void {
    if (this.loopDone) return;
    if (this.watchdogOptions) {
      this.watchdog = new StallWatchdog({
        ...this.watchdogOptions,
        owner: this.owner,
        onError: (err) => this.logger.error({ event: 'stall_watchdog_failed', err }),
      });
    }
    this.loopDone = this.loop();
    this.heartbeatTimer = setInterval(
      () => void this.heartbeat(),
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    this.heartbeatTimer.unref();
  }

  /** Claim now instead of after the idle sleep (e.g. right after enqueueing). */
  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  async stop(deadlineMs: number): Promise<StopResult> {
    const deadline = Date.now() + deadlineMs;
    this.stopping = true;
    this.wake();
    await withDeadline(this.loopDone ?? Promise.resolve(), deadline);
    const running = [...this.inFlight].map((f) => f.done);
    await withDeadline(Promise.all(running), deadline);
    clearInterval(this.heartbeatTimer);
    await this.watchdog?.stop();
    this.closed = true;
    const abandoned = [...this.inFlight];
    for (const f of abandoned) f.controller.abort(new Error('worker stopping'));
    return { abandoned: abandoned.length };
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0) {
        await this.sleep(this.idleMs);
        continue;
      }
      let claimed: ClaimResult;
      try {
        // The read keeps an idle poll off the write lock; the claim itself shares a
        // commit with whatever else the worker is writing at the moment.
        if (!(await hasClaimable(this.db, this.queues, new Date().toISOString()))) {
          await this.sleep(this.idleMs);
          continue;
        }
        claimed = await this.writes.run((trx) =>
          claim(trx, { queues: this.queues, owner: this.owner, leaseMs: this.leaseMs, limit: free }),
        );
      } catch (err) {
        this.logger.error({ event: 'job_claim_failed', err });
        await this.sleep(CLAIM_ERROR_PAUSE_MS);
        continue;
      }
      for (const d of claimed.dead) {
        this.logger.error({
          event: 'job_dead',
          queue: d.queue,
          id: d.id,
          attempts: d.attempts,
          reason: 'lease_expired',
        });
      }
      for (const job of claimed.jobs) this.launch(job);
      // Fewer than asked for means nothing else is due right now.
      if (claimed.jobs.length < free) await this.sleep(this.idleMs);
    }
  }

  private launch(job: ClaimedJob): void {
    const flight: InFlight = {
      job,
      controller: new AbortController(),
      settling: false,
      done: Promise.resolve(),
    };
    this.inFlight.add(flight);
    flight.done = this.run(flight).finally(() => {
      this.inFlight.delete(flight);
      this.wake();
    });
  }

  /** Never rejects: every outcome, including a failure to record it, ends in a log line. */
  private async run(flight: InFlight): Promise<void> {
    const { job } = flight;
    const started = Date.now();
    const handler = this.handlers[job.queue];
    const watchdog = this.watchdog;
    const blamed = { id: job.id, attempts: job.attempts };
    const ctx: JobContext = {
      signal: flight.controller.signal,
      logger: this.logger.child({ module: 'job', queue: job.queue, jobId: job.id }),
      cpu: watchdog ? (work) => watchdog.run(blamed, work) : undefined,
    };
    try {
      // The handler's synchronous start runs on its account too: a stall there is its own.
      await (watchdog ? watchdog.run(blamed, () => invoke(handler, job, ctx)) : invoke(handler, job, ctx));
    } catch (err) {
      flight.settling = true;
      await this.settleFailure(job, err);
      return;
    }
    flight.settling = true;
    if (this.closed) return;
    try {
      if (await this.writes.run((trx) => complete(trx, job, this.owner))) {
        this.logger.debug({
          event: 'job_succeeded',
          queue: job.queue,
          id: job.id,
          attempts: job.attempts,
          ms: Date.now() - started,
        });
      } else {
        this.logger.warn({ event: 'job_lease_lost', queue: job.queue, id: job.id, attempts: job.attempts });
      }
    } catch (err) {
      this.logger.error({ event: 'job_settle_failed', queue: job.queue, id: job.id, err });
    }
  }

  private async settleFailure(job: ClaimedJob, err: unknown): Promise<void> {
    const permanent = isPermanentJobError(err);
    const error = describeError(err);
    const base = { queue: job.queue, id: job.id, attempts: job.attempts };
    this.logger.warn({ event: 'job_failed', ...base, error, permanent });
    if (this.closed) return;
    try {
      const result = await this.writes.run((trx) =>
        fail(trx, job, this.owner, err, { retryable: !permanent, backoff: this.backoff }),
      );
      if (result.outcome === 'retry') {
        this.logger.info({
          event: 'job_retry_scheduled',
          ...base,
          runAt: result.runAt,
          delayMs: result.delayMs,
        });
      } else if (result.outcome === 'dead') {
        const reason = permanent ? 'permanent' : 'attempts_exhausted';
        this.logger.error({ event: 'job_dead', ...base, maxAttempts: job.maxAttempts, reason, error });
      } else {
        this.logger.warn({ event: 'job_lease_lost', ...base });
      }
    } catch (settleErr) {
      this.logger.error({ event: 'job_settle_failed', ...base, err: settleErr });
    }
  }

  /** Renews every running job's lease in one transaction; aborts handlers whose lease is gone. */
  private async heartbeat(): Promise<void> {
    if (this.heartbeating || this.closed || this.inFlight.size === 0) return;
    this.heartbeating = true;
    try {
      const flights = [...this.inFlight].filter((f) => !f.settling && !f.controller.signal.aborted);
      const lost = await this.db.transaction().execute(async (trx) => {
        const out: InFlight[] = [];
        for (const f of flights) if (!(await extendLease(trx, f.job, this.owner, this.leaseMs))) out.push(f);
        return out;
      });
      for (const f of lost) {
        if (f.settling || !this.inFlight.has(f)) continue;
        f.controller.abort(new Error('job lease lost'));
        this.logger.warn({
          event: 'job_lease_lost',
          queue: f.job.queue,
          id: f.job.id,
          attempts: f.job.attempts,
        });
      }
    } catch (err) {
      this.logger.error({ event: 'job_lease_renewal_failed', err });
    } finally {
      this.heartbeating = false;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }
}

async function invoke(handler: JobHandler | undefined, job: ClaimedJob, ctx: JobContext): Promise<void> {
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

/** Resolves when `promise` settles or at `deadline`, whichever comes first. */
async function withDeadline(promise: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([promise.then(() => undefined), expiry]);
  } finally {
    clearTimeout(timer);
  }
}
