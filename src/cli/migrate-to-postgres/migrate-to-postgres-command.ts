import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig, sqlitePath } from '../../config';
import { databaseKind, openDatabase, openDb } from '../../db/connect';
import { redactDatabaseUrl } from '../../config/database-url';
import { databaseInUse } from '../appliance-probe';
import type { Log } from './migrate-to-postgres';
import { migrateToPostgres, verifyOnly } from './migrate-to-postgres';
import { formatChecks } from './verify-copy';

export const MIGRATE_USAGE = `  migrate-to-postgres --to postgres://… [--from FILE|DATA_DIR] [--batch-size N] [--verify-only]
                                             copy the stopped SQLite appliance into PostgreSQL (every
                                             table, the raw inbound files), resumable, then verify row
                                             counts and checksums (exit 2 on a mismatch); --verify-only
                                             checks again without copying. docs/scaling.md`;

/** Exit code of a verification that found a difference (1 stays "could not run"). */
export const MISMATCH_EXIT = 2;

interface Source {
  readonly file: string;
  readonly dataDir: string | undefined;
}

/** `--from` names the database file or DATA_DIR; without it, DATA_DIR/DATABASE_URL of the environment. */
function sourceOf(from: string | undefined): Source {
  if (from === undefined) {
    const config = parseConfig();
    return { file: sqlitePath(config, 'migrate-to-postgres (the SQLite side)'), dataDir: config.dataDir };
  }
  const resolved = path.resolve(from);
  if (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory())
    return { file: path.join(resolved, 'mail.db'), dataDir: resolved };
  return { file: resolved, dataDir: path.dirname(resolved) };
}

/** `ctl migrate-to-postgres …`: returns the exit code. Progress on stderr, the report on stdout. */
export async function migrateToPostgresCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      from: { type: 'string' },
      'batch-size': { type: 'string', default: '500' },
      'verify-only': { type: 'boolean', default: false },
    },
  });
  const to = values.to;
  if (positionals.length > 0 || to === undefined || databaseKind(to) !== 'postgres')
    throw new Error(`migrate-to-postgres needs --to postgres://…\n${MIGRATE_USAGE}`);
  const batchRows = Number(values['batch-size']);
  if (!Number.isInteger(batchRows) || batchRows < 1 || batchRows > 10_000)
    throw new Error('--batch-size takes a whole number from 1 to 10000');
  const log: Log = (line) => process.stderr.write(`migrate-to-postgres: ${line}\n`);
  const { file, dataDir } = sourceOf(values.from);
  if (!fs.existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  // Every appliance process holds the file open (appliance-probe.ts): a copy taken under
  // it would miss what it writes next.
  if (!values['verify-only'] && databaseInUse(file))
    throw new Error(`the appliance is running (${file} is open in another process): stop it first`);

  log(`from ${file} to ${redactDatabaseUrl(to)}`);
  const source = openDb({ file });
  const target = openDatabase(to, { poolSize: 2, applicationName: 'mailroom-migrate-to-postgres' });
  try {
    if (values['verify-only']) {
      const checks = await verifyOnly({ source, target, dataDir });
      process.stdout.write(formatChecks(checks));
      return checks.every((c) => c.equal) ? 0 : MISMATCH_EXIT;
    }
    const { checks, missingRaw } = await migrateToPostgres({ source, target, dataDir, batchRows, log });
    process.stdout.write(formatChecks(checks));
    for (const f of missingRaw)
      log(
        `warning: ${f.path} is named ${f.needed ? 'by a message or a pending job' : 'by a finished job'} but was not on disk`,
      );
    if (!checks.every((c) => c.equal)) {
      log('the copy differs from the SQLite database: do not switch; run again, then --verify-only');
      return MISMATCH_EXIT;
    }
    log(
      'verified. Every node needs the same SECRET_KEY as this appliance' +
        (dataDir !== undefined && fs.existsSync(path.join(dataDir, 'secret.key'))
          ? ` (it used ${path.join(dataDir, 'secret.key')} unless SECRET_KEY was set)`
          : '') +
        ': sealed DKIM keys and webhook secrets open with it only',
    );
    return 0;
  } finally {
    await source.destroy();
    await target.destroy();
  }
}
