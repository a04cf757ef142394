import http from 'node:http';
import { loadConfig, nodeRoles } from '../config';
import { migrate, openDatabase } from '../db/connect';
import { SessionSigner } from '../modules/accounts/sessions';
import { exitOnFatal } from '../shared/fatal';
import { collectWhenIdle } from '../shared/idle-gc';
import { createLogger } from '../shared/logger';
import { startHeartbeat } from '../modules/nodes/heartbeat';
import { listenFailure } from '../shared/listen-failure';
import { createApp } from './app';
import { startApiWriter } from './api-writer';
import { stopWhenParentGoes } from '../shared/parent-watch';
import { restrictNewFiles } from '../shared/private-files';
import { reportReady } from '../shared/process-ready';

/** The api process: `node dist/src/api/main.js`. */
async function main(): Promise<void> {
  const { config } = loadConfig();
  const log = createLogger({ level: config.logLevel, process: 'api', node: config.nodeName });
  const db = openDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    applicationName: 'mailroom-api',
  });
  await migrate(db);
  const heartbeat = await startHeartbeat({ db, node: config.nodeName, roles: nodeRoles(), logger: log });
  const writer = startApiWriter(config, {
    onFatal: (err) => {
      log.fatal({ event: 'api_writer_thread_failed', err }, 'the writer thread failed');
      exitOnFatal('api')(err);
    },
  });
  const api = createApp({
    db,
    sendCommitter: writer,
    config,
    log,
    sessions: new SessionSigner(config.secretKey, config.sessionTtlS),
  });
  const server = http.createServer(api.app.callback());
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(listenFailure({ setting: 'PORT', host: config.bindAddress, port: config.port }, err) ?? err),
    );
    server.listen(config.port, config.bindAddress, resolve);
  });
  const dashboard = `${config.baseUrl.replace(/\/$/, '')}/app/`;
  log.info(
    { event: 'api_started', port: config.port, bindAddress: config.bindAddress, dashboard },
    `api listening: the dashboard is at ${dashboard}`,
  );
  reportReady();

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ event: 'api_stopping', signal }, 'api stopping');
    api.close();
    heartbeat.stop();
    // Stop accepting, let in-flight requests finish, then close idle keep-alive sockets.
    server.close(() => {
      void writer
        .close()
        .then(() => db.destroy())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  stopWhenParentGoes();
  collectWhenIdle(log);
}

restrictNewFiles();
main().catch(exitOnFatal('api'));
