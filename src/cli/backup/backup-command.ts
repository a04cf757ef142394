import { parseArgs } from 'node:util';
import { parseConfig } from '../../config';
import { isInside } from './backed-up-files';
import type { Log } from './create-backup';
import { createBackup } from './create-backup';
import { restoreBackup } from './restore-backup';
import { checkBackup } from './verify-backup';

export const BACKUP_USAGE = `  backup [DEST] [--json]                     online backup of DATA_DIR, safe while running:
                                             DEST a new directory (default DATA_DIR/backups/<time>),
                                             a *.tar.gz file, or - for a tar.gz on stdout
  restore SOURCE [--force] [--json]          restore a backup directory, *.tar.gz or - (stdin) into
                                             DATA_DIR; the appliance must be stopped; --force moves
                                             existing data aside (DATA_DIR/pre-restore-<time>/)
  restore SOURCE --verify-only               check a backup (hashes, database integrity); writes nothing`;

/** `ctl backup …`: returns the exit code. Progress goes to stderr (stdout may carry the archive). */
export async function backupCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length > 1) throw new Error(`backup takes one destination\n${BACKUP_USAGE}`);
  const dest = positionals[0];
  if (dest === '-' && values.json)
    throw new Error('--json cannot be combined with - (stdout carries the archive)');
  const log: Log = (line) => process.stderr.write(`backup: ${line}\n`);
  const config = parseConfig();
  const result = await createBackup({ config, dest, log });
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ path: result.path, format: result.format, manifest: result.manifest }, null, 2)}\n`,
    );
  } else {
    log(`written: ${result.path === '-' ? 'stdout' : result.path}`);
    if (result.path !== '-' && isInside(config.dataDir, result.path))
      log('this copy is on the same disk as DATA_DIR: copy it somewhere else');
  }
  return 0;
}

/** `ctl restore …`: returns the exit code. */
export async function restoreCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'verify-only': { type: 'boolean', default: false },
    },
  });
  const source = positionals[0];
  if (source === undefined || positionals.length > 1)
    throw new Error(`restore takes one source\n${BACKUP_USAGE}`);
  if (values['verify-only']) {
    const manifest = await checkBackup(source);
    process.stdout.write(
      values.json
        ? `${JSON.stringify(manifest, null, 2)}\n`
        : `backup of ${manifest.createdAt} (Mailroom ${manifest.mailroomVersion}): ${manifest.files.length} files and the database verified\n`,
    );
    return 0;
  }
  const log: Log = (line) => process.stderr.write(`restore: ${line}\n`);
  const result = await restoreBackup({ config: parseConfig(), source, force: values.force, log });
  if (values.json) {
    const { manifest, ...rest } = result;
    process.stdout.write(`${JSON.stringify({ ...rest, createdAt: manifest.createdAt }, null, 2)}\n`);
  } else {
    process.stdout.write(`restored the backup of ${result.manifest.createdAt} into ${result.dataDir}\n`);
  }
  return 0;
}
