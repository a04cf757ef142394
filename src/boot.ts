import { loadConfig, sqlitePath } from './config';
import { migrate, openDb } from './db/connect';
import { exitOnFatal } from './shared/fatal';
import { createLogger } from './shared/logger';

/** What the supervisor needs to know from the configuration (sent over IPC). */
export interface BootResult {
  readonly logLevel: string;
  readonly shutdownTimeoutMs: number;
  readonly dataDir: string;
}

/**
 * The supervisor's first, short-lived child (`node dist/src/boot.js`): validates
 * the configuration (exit 78 listing every invalid key), creates the secret key
 * and the schema once, sends the supervisor the few settings it needs, exits 0.
 * A process of its own so that the supervisor, which lives as long as the
 * appliance, never loads zod, kysely or better-sqlite3 (issue 11, idle memory).
 */
async function boot(): Promise<void> {
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
  const result: BootResult = {
    logLevel: config.logLevel,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    dataDir: config.dataDir,
  };
  if (typeof process.send === 'function') {
    await new Promise<void>((resolve, reject) =>
      process.send?.(result, (err: Error | null) => (err ? reject(err) : resolve())),
    );
  }
}

boot().then(() => process.exit(0), exitOnFatal('supervisor'));
