import { loadConfig, sqlitePath } from './config';
import { migrate, openDb } from './db/connect';
import { exitOnFatal } from './shared/fatal';
import { createLogger } from './shared/logger';
import type { ProcessName } from './supervisor';
import { PROCESS_NAMES, Supervisor } from './supervisor';

function selectedProcesses(argv: readonly string[]): ProcessName[] {
  if (argv.length === 0) return [...PROCESS_NAMES];
  const names = argv.flatMap((a) => a.split(',')).filter((a) => a !== '');
  const unknown = names.filter((n) => !(PROCESS_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(`unknown process name(s): ${unknown.join(', ')} (use api, worker, mta)`);
  return names as ProcessName[];
}

/**
 * `npm start` (or `node dist/src/main.js [api,worker,mta]`): validates config,
 * creates the secret key and schema once, then supervises the processes.
 */
async function main(): Promise<void> {
  const names = selectedProcesses(process.argv.slice(2));
  const { config, secret } = loadConfig();
  const log = createLogger({ level: config.logLevel, process: 'supervisor' });
  if (secret.generated) {
    log.warn(
      { event: 'secret_key_generated', file: `${config.dataDir}/secret.key` },
      'SECRET_KEY is unset: generated one into DATA_DIR. Back it up with the data; losing it loses DKIM keys and sessions.',
    );
  }
  const db = openDb({ file: sqlitePath(config) });
  const applied = await migrate(db);
  await db.destroy();
  if (applied.length > 0) log.info({ event: 'migrations_applied', migrations: applied }, 'database migrated');

  const supervisor = new Supervisor({ names, log, shutdownTimeoutMs: config.shutdownTimeoutMs });
  supervisor.start();
  log.info({ event: 'supervisor_started', processes: names, dataDir: config.dataDir }, 'mailroom started');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ event: 'supervisor_stopping', signal }, 'stopping');
    void supervisor.stop().then(() => {
      log.info({ event: 'supervisor_stopped' }, 'stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch(exitOnFatal('supervisor'));
