import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { WriteBatcher } from '../db/write-batcher';
import type { BackoffPolicy } from '../jobs/backoff';
import type { ClaimedJob, ClaimResult } from '../jobs/claim';
import { claim, hasClaimable } from '../jobs/claim';
import type { QueueName } from '../jobs/queues';
import type { SlotPlan } from '../jobs/queue-slots';
import { planSlots, SlotBudget } from '../jobs/queue-slots';
import { randomToken } from '../shared/ids';
import type { Logger } from '../shared/logger';
import type { HandlerRegistry, JobContext } from '../jobs/job-handler';
import type { SettlementDeps } from './job-settlement';
import { invokeHandler, settleFailure, settleSuccess } from './job-settlement';
import type { InFlight } from './lease-renewal';
import { renewLeases } from './lease-renewal';
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
  /** Handlers running at once, split between the queues as queue-slots.ts says. */
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
  private readonly slots: SlotPlan;
  private readonly idleMs: number;
  private readonly writes: WriteBatcher;
  private readonly settlement: SettlementDeps;
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
    this.writes = options.writes ?? new WriteBatcher(this.db);
    this.settlement = {
      writes: this.writes,
      owner: this.owner,
      logger: this.logger,
      backoff: options.backoff,
      closed: () => this.closed,
    };
    this.watchdogOptions = options.stallWatchdog;
    this.slots = planSlots(
      this.concurrency,
      (Object.keys(this.handlers) as QueueName[]).filter((q) => this.handlers[q] !== undefined),
    );
    // Claimed in this order (email-send first) when shared slots are short.
    this.queues = [...this.slots.order];
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
      // Only queues with a free slot of their own or a shared one: a queue at its share
      // waits for its own jobs to finish, whatever the others hold (queue-slots.ts).
      const open = this.queues.filter((q) => this.budget().allowance(q) > 0);
      let claimed: ClaimResult;
      try {
        // The read keeps an idle poll off the write lock; the claim itself shares a
        // commit with whatever else the worker is writing at the moment.
        if (open.length === 0 || !(await hasClaimable(this.db, open, new Date().toISOString()))) {
          await this.sleep(this.idleMs);
          continue;
        }
        claimed = await this.writes.run((trx) =>
          claim(trx, {
            queues: open,
            owner: this.owner,
            leaseMs: this.leaseMs,
            limit: free,
            budget: this.budget(),
          }),
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

  /** The slots free now, from what runs per queue. */
  private budget(): SlotBudget {
    const running = new Map<QueueName, number>();
    for (const f of this.inFlight) running.set(f.job.queue, (running.get(f.job.queue) ?? 0) + 1);
    return new SlotBudget(this.slots, running);
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
      await (watchdog
        ? watchdog.run(blamed, () => invokeHandler(handler, job, ctx))
        : invokeHandler(handler, job, ctx));
    } catch (err) {
      flight.settling = true;
      await settleFailure(this.settlement, job, err);
      return;
    }
    flight.settling = true;
    await settleSuccess(this.settlement, job, started);
  }

  /** Renews every running job's lease (lease-renewal.ts), one renewal at a time. */
  private async heartbeat(): Promise<void> {
    if (this.heartbeating || this.closed || this.inFlight.size === 0) return;
    this.heartbeating = true;
    try {
      await renewLeases({
        db: this.db,
        inFlight: this.inFlight,
        owner: this.owner,
        leaseMs: this.leaseMs,
        logger: this.logger,
      });
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
