// Must stay the first import: sets UV_THREADPOOL_SIZE before libuv's pool starts.
import './threadpool';
import { loadConfig, nodeRoles } from '../config';
import { exitOnFatal } from '../shared/fatal';
import { collectWhenIdle } from '../shared/idle-gc';
import { createLogger } from '../shared/logger';
import { runHarakaInProcess, waitForGreeting } from './haraka-process';
import { databaseKind } from '../db/connect';
import { closeMtaRuntime, mtaDb } from './mta-runtime';
import type { RunningHeartbeat } from '../modules/nodes/heartbeat';
import { startHeartbeat } from '../modules/nodes/heartbeat';
import { mtaListeners } from './listeners';
import { checkListeners } from '../shared/listen-failure';
import { harakaDelivers, renderMtaConfig } from './render-config';
import { mtaProbeHost } from './probe';
import { restrictNewFiles } from '../shared/private-files';

/** A healthy Haraka is up in 1-2 s; past this something is wrong and a restart is the remedy. */
const READY_TIMEOUT_MS = 30_000;

/**
 * The mta process: `node dist/src/mta/main.js`. Renders haraka-config/ into
 * `$DATA_DIR/mta`, then runs Haraka in this very process (no child: one node
 * process less, issue 11), its log records mapped to our JSON log lines. On
 * SIGTERM/SIGINT Haraka stops gracefully and the process exits 0, forced within
 * SHUTDOWN_TIMEOUT_MS; a Haraka that does not come up exits 1 (the supervisor
 * restarts it), and so does a crash.
 */
async function main(): Promise<void> {
  const { config } = loadConfig();
  const logger = createLogger({ level: config.logLevel, process: 'mta', node: config.nodeName });
  // Haraka answers a port in use with a stack trace and exit -1, which the supervisor
  // would restart forever: bind each listener first and exit 71 with one line naming
  // the setting (issue 21 item 3). A port taken in the moment between is still
  // caught by the supervisor's give-up on repeated start-up failures.
  const delivers = harakaDelivers(config);
  if (delivers && config.injectPort === 0) {
    throw new Error(
      'MTA_INJECT_PORT is 0 (a port chosen at start by node dist/src/main.js): set it when the mta runs without that supervisor',
    );
  }
  await checkListeners(mtaListeners(config));

  const rendered = renderMtaConfig(config);
  logger.info(
    {
      event: 'mta_config_rendered',
      harakaDir: rendered.harakaDir,
      queueDir: rendered.queueDir,
      plugins: rendered.plugins,
      tls: rendered.tls,
    },
    'Haraka configuration rendered',
  );

  logger.info(
    {
      event: 'mta_starting',
      harakaPid: process.pid,
      smtp: `${config.bindAddress}:${config.smtpPort}`,
      inject: delivers ? `127.0.0.1:${config.injectPort}` : null,
      outbound: delivers ? 'haraka' : 'worker',
    },
    'starting Haraka',
  );
  const haraka = runHarakaInProcess(rendered.harakaDir, logger, {
    injectPort: delivers ? config.injectPort : undefined,
  });

  let stopping = false;
  let failed = false;
  let heartbeat: RunningHeartbeat | undefined;
  process.on('exit', (code) => {
    if (stopping && !failed) logger.info({ event: 'mta_stopped', code }, 'Haraka stopped');
    else logger.error({ event: 'mta_exited', code }, 'Haraka exited unexpectedly');
  });
  // Leave the supervisor (which waits SHUTDOWN_TIMEOUT_MS) time to see us exit on our own.
  const killAfterMs = Math.max(500, config.shutdownTimeoutMs - 1_000);
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'mta_stopping', reason }, 'stopping Haraka');
    heartbeat?.stop();
    // Haraka's graceful stop ends when its event loop drains (sessions and
    // deliveries done): only then are the database connections closed.
    process.once('beforeExit', () => {
      closeMtaRuntime().catch((err: unknown) =>
        logger.warn({ event: 'mta_db_close_failed', err }, 'closing the database failed'),
      );
    });
    haraka.stop(killAfterMs, () => process.exit(failed ? 1 : 0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const never = new Promise<never>(() => undefined);
  // Ready once the first listener greets: the injection listener, or the MX without one.
  const greeter = delivers ? config.injectPort : config.smtpPort;
  const greetHost = delivers ? '127.0.0.1' : mtaProbeHost(config.bindAddress);
  const ready = await waitForGreeting(greetHost, greeter, READY_TIMEOUT_MS, never);
  if (ready.ok) {
    logger.info({ event: 'mta_ready', banner: ready.banner }, 'MTA accepting connections');
    // The node's liveness, for an MTA-only node of a cluster (issue 23). On PostgreSQL only:
    // a cluster needs it, and there the write is asynchronous. On SQLite (one host, whose
    // api and worker beat for it) a write on Haraka's event loop could wait for the write
    // lock and stall every session, which is why its other writes go to a writer thread.
    if (databaseKind(config.databaseUrl) === 'postgres') {
      startHeartbeat({ db: mtaDb(), node: config.nodeName, roles: nodeRoles(), logger }).then(
        (h) => (stopping ? h.stop() : (heartbeat = h)),
        (err: unknown) =>
          logger.error({ event: 'node_heartbeat_failed', err }, 'the node heartbeat did not start'),
      );
    }
    process.send?.({ event: 'mta_ready' });
    collectWhenIdle(logger);
  } else if (!stopping) {
    logger.error({ event: 'mta_not_ready', error: ready.error }, 'Haraka did not come up; stopping it');
    failed = true;
    stop('not ready');
    // Haraka's graceful stop exits 0 once idle; this one is a failure.
    process.exitCode = 1;
  }
}

restrictNewFiles();
main().catch(exitOnFatal('mta'));
