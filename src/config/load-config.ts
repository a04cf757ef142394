import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config, ConfigKey } from './config-table';
import { configTable } from './config-table';
import { databaseKind, sqliteFileOf } from './database-url';
import { ConfigValueError } from './parsers';

/** The configuration every process runs on: the table's values, with the master secret always present. */
export type AppConfig = Omit<Config, 'secretKey'> & { readonly secretKey: string };

export interface ConfigProblem {
  readonly env: string;
  readonly problem: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p.env}: ${p.problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type AnyKey = ConfigKey<unknown, boolean>;

/**
 * Parses the table from `env` (process.env by default). Collects every invalid
 * key before failing so an operator fixes them all in one go.
 */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = new Map<string, string | undefined>();
  const failed = new Set<string>();
  const current = { readFailed: false };
  const lookup = (name: string): string | undefined => {
    if (failed.has(name)) current.readFailed = true;
    return raw.get(name);
  };
  const problems: ConfigProblem[] = [];
  const out: Record<string, unknown> = {};
  for (const [prop, entry] of Object.entries(configTable) as [string, AnyKey][]) {
    const given = env[entry.env];
    current.readFailed = false;
    const value = given !== undefined && given !== '' ? given : entry.fallback?.(lookup);
    raw.set(entry.env, value);
    if (value === undefined) {
      out[prop] = undefined;
      continue;
    }
    try {
      out[prop] = entry.parse(value);
    } catch (err) {
      if (!(err instanceof ConfigValueError)) throw err;
      failed.add(entry.env);
      // A default derived from an invalid key is not a second problem: fixing that key fixes it.
      if (!current.readFailed) problems.push({ env: entry.env, problem: err.message });
    }
  }
  if (problems.length === 0) problems.push(...crossKeyProblems(out as Config));
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Config;
}

/** Listeners must not collide: two processes would fight over one port. */
function crossKeyProblems(config: Config): ConfigProblem[] {
  const ports: [string, number][] = [
    ['PORT', config.port],
    ['WORKER_PORT', config.workerPort],
    ['SMTP_PORT', config.smtpPort],
    ['SUBMISSION_PORT', config.submissionPort],
    ['SMTPS_PORT', config.smtpsPort],
    ['MTA_INJECT_PORT', config.injectPort],
  ];
  const problems: ConfigProblem[] = [];
  const seen = new Map<number, string>();
  for (const [env, port] of ports) {
    if (port === 0) continue;
    const other = seen.get(port);
    if (other !== undefined) problems.push({ env, problem: `port ${port} is already used by ${other}` });
    else seen.set(port, env);
  }
  // A certificate without its key (or the reverse) cannot be served: refuse rather than fall back silently.
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined)) {
    const env = config.tlsCertFile === undefined ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE';
    problems.push({ env, problem: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together' });
  }
  return problems;
}

export interface SecretKeySource {
  readonly secretKey: string;
  /** True when the key was generated into DATA_DIR just now. */
  readonly generated: boolean;
  readonly fromFile: boolean;
}

/**
 * SECRET_KEY when set; else `$DATA_DIR/secret.key`, generated once with mode 0600.
 * The exclusive create makes concurrent first boots agree on one key.
 */
export function resolveSecretKey(config: Config): SecretKeySource {
  if (config.secretKey !== undefined)
    return { secretKey: config.secretKey, generated: false, fromFile: false };
  const file = path.join(config.dataDir, 'secret.key');
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    const key = crypto.randomBytes(32).toString('base64url');
    fs.writeSync(fd, `${key}\n`);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    return { secretKey: key, generated: true, fromFile: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = fs.readFileSync(file, 'utf8').trim();
  if (key.length < 32) throw new ConfigError([{ env: 'SECRET_KEY', problem: `${file} holds no usable key` }]);
  return { secretKey: key, generated: false, fromFile: true };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): {
  config: AppConfig;
  secret: SecretKeySource;
} {
  const parsed = parseConfig(env);
  const secret = resolveSecretKey(parsed);
  return { config: { ...parsed, secretKey: secret.secretKey }, secret };
}

/**
 * The SQLite file named by DATABASE_URL (`sqlite:<path>`, `file:<path>` or a bare path).
 * Only for what exists on SQLite alone (backup, restore, the file's directory checks):
 * callers that merely choose a backend ask `databaseKind` first. `purpose` says what
 * needed the file, for the refusal on PostgreSQL.
 */
export function sqlitePath(config: Pick<Config, 'databaseUrl'>, purpose = 'this'): string {
  const u = config.databaseUrl;
  if (databaseKind(u) === 'postgres') {
    throw new ConfigError([
      {
        env: 'DATABASE_URL',
        problem: `names a PostgreSQL server; ${purpose} works on the SQLite backend only`,
      },
    ]);
  }
  if (/^mysql:/i.test(u)) {
    throw new ConfigError([{ env: 'DATABASE_URL', problem: 'only SQLite and PostgreSQL are supported' }]);
  }
  return sqliteFileOf(u);
}
