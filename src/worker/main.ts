import { loadConfig, nodeRoles } from '../config';
import { migrate, openDatabase } from '../db/connect';
import { WriteBatcher } from '../db/write-batcher';
import { exitOnFatal } from '../shared/fatal';
import { collectWhenIdle } from '../shared/idle-gc';
import { createLogger } from '../shared/logger';
import { rescueFailedInbound } from '../modules/inbound/rescue-failed-inbound';
import { startHeartbeat } from '../modules/nodes/heartbeat';
import { createOutboundSender } from '../sender/outbound-sender';
import { createHandlers, seedSchedules } from './handlers';
import { startWorker } from './start-worker';
import { stopWhenParentGoes } from '../shared/parent-watch';
import { restrictNewFiles } from '../shared/private-files';
import { reportReady } from '../shared/process-ready';

/** How long shutdown waits for running handlers; the rest come back through lease expiry. */
const STOP_DEADLINE_MS = 5_000;
/** Past this, something in shutdown hangs (a stuck close): exit non-zero rather than linger. */
const FORCE_EXIT_MS = 9_000;

async function main(): Promise<void> {
  // A SIGTERM that comes while the worker is still starting (its health port already answers
  // while schedules are seeded) is held, then honoured as a clean stop once start-up is done.
  let early: NodeJS.Signals | undefined;
  const holdSignal = (signal: NodeJS.Signals): void => {
    early ??= signal;
  };
  process.on('SIGTERM', holdSignal);
  process.on('SIGINT', holdSignal);
  const { config, secret } = loadConfig();
  const logger = createLogger({ level: config.logLevel, process: 'worker', node: config.nodeName });
  if (secret.generated) logger.warn({ event: 'secret_key_generated', dataDir: config.dataDir });
  const db = openDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    applicationName: 'mailroom-worker',
  });
  await migrate(db);
  const roles = nodeRoles();
  // Before the first claim: this node's sweep must never find the node itself silent.
  const heartbeat = await startHeartbeat({ db, node: config.nodeName, roles, logger });
  // One group commit for the handlers' writes and the runner's claims and settlements.
  const writes = new WriteBatcher(db);
  // OUTBOUND_SENDER=worker: this process delivers outbound mail itself (issue 31).
  const senderLog = logger.child({ module: 'sender' });
  const sender =
    config.outboundSender === 'worker'
      ? createOutboundSender(config, (event, fields) => senderLog.info({ event, ...fields }))
      : undefined;
  const handlers = createHandlers({ db, config, writes, roles, sender });
  // Messages of inbound jobs a previous run could not settle (a stall kill, a crash on the
  // last attempt) are stored unparsed before anything else runs (docs/inbound.md).
  await rescueFailedInbound({ db, writes, logger }).catch((err: unknown) =>
    logger.error({ event: 'inbound_rescue_failed', err }),
  );
  const worker = await startWorker({
    config,
    db,
    handlers,
    logger,
    writes,
    stallWatchdog: {
      limitMs: config.workerStallLimitMs,
      url: config.databaseUrl,
      logLevel: config.logLevel,
      node: config.nodeName,
    },
  });
  await seedSchedules({ db, config });
  reportReady();

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    logger.info({ event: 'worker_stopping', signal });
    setTimeout(() => {
      logger.error({ event: 'worker_stop_timeout' });
      process.exit(1);
    }, FORCE_EXIT_MS).unref();
    try {
      heartbeat.stop();
      const { abandoned } = await worker.stop(STOP_DEADLINE_MS);
      sender?.close();
      await db.destroy();
      logger.info({ event: 'worker_stopped', abandoned });
      process.exit(0);
    } catch (err) {
      logger.error({ event: 'worker_stop_failed', err });
      process.exit(1);
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    // A second signal while stopping changes nothing; the deadline already bounds shutdown.
    if (stopping) return;
    stopping = true;
    void shutdown(signal);
  };
  process.off('SIGTERM', holdSignal);
  process.off('SIGINT', holdSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  if (early) onSignal(early);
  stopWhenParentGoes();
  collectWhenIdle(logger);
}

restrictNewFiles();
main().catch(exitOnFatal('worker'));
