import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { Database } from '../db/schema';
import type { WriteBatcher } from '../db/write-batcher';
import type { Logger } from '../shared/logger';
import type { HandlerRegistry } from '../jobs/job-handler';
import { startHealthServer } from './health-server';
import { JobRunner } from './job-runner';
import { onWorkSignal } from '../shared/work-signal';
import type { StallWatchdogOptions } from './stall-watchdog';

export interface StartWorkerOptions {
  readonly config: Pick<AppConfig, 'workerPort' | 'bindAddress'> &
    Partial<Pick<AppConfig, 'workerConcurrency' | 'workerPollMs'>>;
  /** Migrated already. */
  readonly db: Kysely<Database>;
  readonly handlers: HandlerRegistry;
  readonly logger: Logger;
  /** The group commit the handlers write through, shared so settlements join their commits. */
  readonly writes?: WriteBatcher | undefined;
  /** Fail a job that blocks the event loop and restart the worker (see stall-watchdog.ts). */
  readonly stallWatchdog?: StallWatchdogOptions | undefined;
}

export interface RunningWorker {
  readonly owner: string;
  readonly port: number;
  /** Stops claiming, waits up to `deadlineMs` for running handlers, closes the health port. Leaves `db` open. */
  stop(deadlineMs: number): Promise<{ abandoned: number }>;
}

/** The worker's pieces: job runner and health port. Process concerns (signals, exit) stay in main.ts. */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const runner = new JobRunner({
    db: options.db,
    handlers: options.handlers,
    logger: options.logger.child({ module: 'job-runner' }),
    concurrency: options.config.workerConcurrency,
    idleMs: options.config.workerPollMs,
    writes: options.writes,
    stallWatchdog: options.stallWatchdog,
  });
  const health = await startHealthServer({
    port: options.config.workerPort,
    host: options.config.bindAddress,
  });
  runner.start();
  // A send the api just committed is claimed now, not at the next poll.
  onWorkSignal(() => runner.wake());
  options.logger.info({
    event: 'worker_started',
    owner: runner.owner,
    queues: runner.queues,
    port: health.port,
  });
  return {
    owner: runner.owner,
    port: health.port,
    stop: async (deadlineMs) => {
      const result = await runner.stop(deadlineMs);
      await health.close();
      return result;
    },
  };
}
