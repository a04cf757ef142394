// The real webhook handlers run by the real JobRunner against the appliance's own SQLite
// file. Run as a script it is a killable worker process (config from its environment),
// printing WEBHOOK_WORKER_READY once claiming.
import type { AppConfig } from '../../src/config';
import { loadConfig } from '../../src/config';
import type { Db } from '../../src/db/connect';
import { migrate } from '../../src/db/connect';
import { openTestDatabase } from './open-database';
import type { WebhookEventName } from '../../src/modules/webhooks/webhook-outbox.repository';
import { recordOutbox } from '../../src/modules/webhooks/webhook-outbox.repository';
import { createWebhookHandlers, seedWebhookSchedules } from '../../src/modules/webhooks/webhooks.jobs';
import { createLogger } from '../../src/shared/logger';
import { JobRunner } from '../../src/worker/job-runner';
import type { CapturedLog } from './capture-log';
import { captureLog } from './capture-log';

export interface HandlerOptions {
  readonly timeoutMs?: number;
  readonly dispatchIntervalMs?: number;
}

export interface WebhookWorker {
  readonly db: Db;
  readonly config: AppConfig;
  readonly log: CapturedLog;
  stop(): Promise<void>;
}

/** The real handlers under the real JobRunner, on the appliance's database, in this process. */
export async function startWebhookWorker(
  env: Record<string, string>,
  options: HandlerOptions & { readonly leaseMs?: number } = {},
): Promise<WebhookWorker> {
  const { config } = loadConfig(env);
  const db = openTestDatabase(config.databaseUrl);
  await migrate(db);
  const log = captureLog({ process: 'test-worker' });
  const runner = new JobRunner({
    db,
    logger: log.logger,
    idleMs: 20,
    leaseMs: options.leaseMs ?? 5_000,
    handlers: createWebhookHandlers({
      db,
      config,
      timeoutMs: options.timeoutMs,
      dispatchIntervalMs: options.dispatchIntervalMs,
    }),
  });
  await seedWebhookSchedules(db, { dispatchIntervalMs: options.dispatchIntervalMs });
  runner.start();
  return {
    db,
    config,
    log,
    async stop() {
      await runner.stop(5_000);
      await db.destroy();
    },
  };
}

/** Records an event the way the email pipeline does: an outbox row (the producer's real function). */
export async function emit(
  db: Db,
  userId: string,
  event: WebhookEventName,
  data: Record<string, unknown> = {},
  ids: { emailId?: string | null; recipient?: string | null } = {},
): Promise<void> {
  await recordOutbox(db, {
    userId,
    event,
    emailId: ids.emailId === undefined ? 'email_01test' : ids.emailId,
    recipient: ids.recipient === undefined ? 'rcpt@example.org' : ids.recipient,
    data,
  });
}

export const READY_MARKER = 'WEBHOOK_WORKER_READY';

/** As a child process: a worker the crash test can SIGKILL. Logs go to stdout (silenced by LOG_LEVEL). */
async function main(): Promise<void> {
  const { config } = loadConfig(process.env);
  const db = openTestDatabase(config.databaseUrl);
  await migrate(db);
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', process: 'test-webhook-worker' });
  const dispatchIntervalMs = Number(process.env.TEST_DISPATCH_INTERVAL_MS ?? 100);
  const runner = new JobRunner({
    db,
    logger,
    idleMs: 20,
    leaseMs: Number(process.env.TEST_LEASE_MS ?? 1_000),
    concurrency: 8,
    handlers: createWebhookHandlers({ db, config, dispatchIntervalMs }),
  });
  await seedWebhookSchedules(db, { dispatchIntervalMs });
  runner.start();
  process.stdout.write(`${READY_MARKER}\n`);
  process.once('SIGTERM', () => {
    void runner
      .stop(2_000)
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`webhook-worker: ${String(err)}\n`);
    process.exit(1);
  });
}
