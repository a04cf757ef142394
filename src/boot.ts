import { loadConfig, mailHostnameWarning, openSignupWarning } from './config';
import { migrate, openDatabase } from './db/connect';
import { importOutboundQueue } from './mta/outbound-queue-import';
import { exitOnFatal } from './shared/fatal';
import { freeLoopbackPort } from './shared/listen-failure';
import { createLogger } from './shared/logger';
import { restrictDataDir, restrictNewFiles } from './shared/private-files';

/** What the supervisor needs to know from the configuration (sent over IPC). */
export interface BootResult {
  readonly logLevel: string;
  readonly shutdownTimeoutMs: number;
  readonly dataDir: string;
  /** NODE_NAME, for the supervisor's log lines. */
  readonly nodeName: string;
  /** Settings chosen at start, for every child's environment (MTA_INJECT_PORT when it is 0). */
  readonly childEnv: Readonly<Record<string, string>>;
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
  const log = createLogger({ level: config.logLevel, process: 'supervisor', node: config.nodeName });
  if (secret.generated) {
    log.warn(
      { event: 'secret_key_generated', file: `${config.dataDir}/secret.key` },
      'SECRET_KEY is unset: generated one into DATA_DIR. Back it up with the data; losing it loses DKIM keys and sessions.',
    );
  }
  const hostnameWarning = mailHostnameWarning(config);
  if (hostnameWarning !== undefined) {
    log.warn({ event: 'mail_hostname_not_fqdn', mailHostname: config.mailHostname }, hostnameWarning);
  }
  const signupWarning = openSignupWarning(config);
  if (signupWarning !== undefined) {
    log.warn({ event: 'signup_open_public', baseUrl: config.baseUrl }, signupWarning);
  }
  const db = openDatabase(config.databaseUrl, { poolSize: 1, applicationName: 'mailroom-boot' });
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ event: 'migrations_applied', migrations: applied }, 'database migrated');
  // Before any process starts (no Haraka on the queue yet): the mail an earlier run's Haraka
  // outbound still held becomes jobs for the worker's sender (docs/upgrading.md).
  if (config.outboundSender === 'worker')
    await importOutboundQueue({ db, dataDir: config.dataDir, logger: log });
  await db.destroy();
  // Upgrades: files an earlier version created under umask 022 (issue 17, finding 10).
  const modes = restrictDataDir(config.dataDir);
  if (modes.fixed.length > 0) {
    log.info(
      { event: 'data_dir_modes_fixed', files: modes.fixed.length, dataDir: config.dataDir },
      'made files under DATA_DIR private to the appliance user (0600/0700)',
    );
  }
  if (modes.failed.length > 0) {
    log.warn(
      { event: 'data_dir_modes_unfixable', files: modes.failed.slice(0, 20), count: modes.failed.length },
      'could not make these files under DATA_DIR private; check their owner',
    );
  }
  const childEnv: Record<string, string> = {};
  if (config.injectPort === 0) {
    // No fixed hidden port (issue 21 item 3): two appliances on one host would both
    // want 2526. Chosen once per start, so an mta restart keeps the worker's port.
    childEnv.MTA_INJECT_PORT = String(await freeLoopbackPort());
    log.info(
      { event: 'mta_inject_port_chosen', port: Number(childEnv.MTA_INJECT_PORT) },
      'MTA_INJECT_PORT is 0: chose a free loopback port for the worker-to-MTA hand-off',
    );
  }
  const result: BootResult = {
    logLevel: config.logLevel,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    dataDir: config.dataDir,
    nodeName: config.nodeName,
    childEnv,
  };
  if (typeof process.send === 'function') {
    await new Promise<void>((resolve, reject) =>
      process.send?.(result, (err: Error | null) => (err ? reject(err) : resolve())),
    );
  }
}

restrictNewFiles();
boot().then(() => process.exit(0), exitOnFatal('supervisor'));
