import { loadConfig } from '../config';
import { exitOnFatal } from '../shared/fatal';
import { createLogger } from '../shared/logger';
import { spawnHaraka, waitForGreeting } from './haraka-process';
import { renderMtaConfig } from './render-config';

/** A healthy Haraka is up in 1-2 s; past this something is wrong and a restart is the remedy. */
const READY_TIMEOUT_MS = 30_000;

/**
 * The mta process: `node dist/src/mta/main.js`. Renders haraka-config/ into
 * `$DATA_DIR/mta`, runs Haraka as a child, maps its output to our JSON log
 * lines, and stops it on SIGTERM/SIGINT within SHUTDOWN_TIMEOUT_MS. Exits when
 * Haraka exits: 0 when asked to stop, 1 otherwise (so the supervisor restarts it).
 */
async function main(): Promise<void> {
  const { config } = loadConfig();
  const logger = createLogger({ level: config.logLevel, process: 'mta' });

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

  const haraka = spawnHaraka(rendered.harakaDir, logger);
  logger.info(
    {
      event: 'mta_starting',
      harakaPid: haraka.pid,
      smtp: `${config.bindAddress}:${config.smtpPort}`,
      inject: `127.0.0.1:${config.injectPort}`,
    },
    'starting Haraka',
  );

  let stopping = false;
  let failed = false;
  // Leave the supervisor (which waits SHUTDOWN_TIMEOUT_MS) time to see us exit on our own.
  const killAfterMs = Math.max(500, config.shutdownTimeoutMs - 1_000);
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'mta_stopping', reason }, 'stopping Haraka');
    void haraka.stop(killAfterMs);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  void waitForGreeting('127.0.0.1', config.injectPort, READY_TIMEOUT_MS, haraka.exited).then((ready) => {
    if (ready.ok) {
      logger.info({ event: 'mta_ready', banner: ready.banner }, 'MTA accepting connections');
    } else if (!stopping) {
      logger.error({ event: 'mta_not_ready', error: ready.error }, 'Haraka did not come up; stopping it');
      failed = true;
      stop('not ready');
    }
  });

  const exit = await haraka.exited;
  if (stopping && !failed) {
    logger.info({ event: 'mta_stopped', ...exit }, 'Haraka stopped');
    process.exit(0);
  }
  logger.error({ event: 'mta_exited', ...exit }, 'Haraka exited unexpectedly');
  process.exit(1);
}

main().catch(exitOnFatal('mta'));
