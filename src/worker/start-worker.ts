import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { Database } from '../db/schema';
import type { WriteBatcher } from '../db/write-batcher';
import type { Logger } from '../shared/logger';
import type { HandlerRegistry } from '../jobs/job-handler';
import { startHealthServer } from './health-server';
import { JobRunner } from './job-runner';
import { onWorkSignal } from '../shared/work-signal';
import { databaseKind } from '../db/connect';
import type * as Listener from './job-listener';
import type { StallWatchdogOptions } from './stall-watchdog';

export interface StartWorkerOptions {
  readonly config: Pick<AppConfig, 'workerPort' | 'bindAddress'> &
    Partial<Pick<AppConfig, 'workerConcurrency' | 'workerPollMs' | 'databaseUrl'>>;
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
  const listener = listenOnPostgres(options, runner);
  await listener?.ready;
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
      await listener?.close();
      const result = await runner.stop(deadlineMs);
      await health.close();
      return result;
    },
  };
}

/** On PostgreSQL, jobs made due by any node (its api, mta or worker) wake this runner too. */
function listenOnPostgres(options: StartWorkerOptions, runner: JobRunner): Listener.JobListener | undefined {
  const url = options.config.databaseUrl;
  if (url === undefined || databaseKind(url) !== 'postgres') return undefined;
  // Required here, not imported: a SQLite appliance never loads pg.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { listenForJobs } = require('./job-listener') as typeof Listener;
  return listenForJobs({
    url,
    queues: runner.queues,
    wake: () => runner.wake(),
    logger: options.logger.child({ module: 'job-listener' }),
  });
}
