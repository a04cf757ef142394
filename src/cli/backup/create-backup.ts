import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config';
import { databaseKind, sqlitePath } from '../../config';
import { isBackedUp, isInside, liveDbFiles, QUEUE_DIR, supersededQueueFiles } from './backed-up-files';
import type { BackupFile, BackupManifest } from './backup-manifest';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  DATA_SUBDIR,
  DB_FILE,
  defaultBackupName,
  MANIFEST,
  secretFingerprint,
} from './backup-manifest';
import { fsyncPath } from '../../shared/sync-directory';
import { copyOne, listFiles } from './file-io';
import { runCommand } from './run-command';
import { snapshotDatabase } from './snapshot-database';

/**
 * Online backup of DATA_DIR (`npm run ctl -- backup`); restore-backup.ts puts one back.
 *
 * A backup is a directory (or a .tar.gz of one) holding:
 *   manifest.json   what was taken, with a SHA-256 per file
 *   mail.db         the database, from SQLite's online backup API (consistent, WAL-safe)
 *   data/…          every other file of DATA_DIR: secret.key, mta-queue/, …
 *
 * Left out: the live database files (mail.db, -wal, -shm: the snapshot replaces
 * them), `mta/` (Haraka's configuration, rendered again at every start),
 * `backups/` and our own staging directories.
 *
 * The files are copied in two passes around the database snapshot, so a queue
 * file or inbound message written while the snapshot runs is still taken. What
 * can go wrong while the appliance keeps running errs towards delivering twice
 * (a message delivered during the backup is in the copied queue, and is sent
 * again after a restore); see docs/backup.md for the one narrow window.
 */

export type Log = (line: string) => void;

/**
 * `ctl backup`/`restore` copy the SQLite file and DATA_DIR of one host. A PostgreSQL
 * database is the server's to back up, consistently across nodes, with the tools made
 * for it (docs/backup.md): refused, rather than a backup that holds no mail.
 */
export function refuseOnPostgres(databaseUrl: string, command: 'backup' | 'restore'): void {
  if (databaseKind(databaseUrl) !== 'postgres') return;
  throw new Error(
    `DATABASE_URL names a PostgreSQL server: \`ctl ${command}\` covers the SQLite backend only. ` +
      "Back up PostgreSQL with pg_dump / pg_restore (or your server's base backups and WAL archive), " +
      "and each node's DATA_DIR (secret.key, mta-queue) with your file backups: see docs/backup.md",
  );
}

export type BackupTarget =
  | { readonly kind: 'stdout' }
  | { readonly kind: 'archive'; readonly file: string }
  | { readonly kind: 'directory'; readonly dir: string };

/** `-` streams a tar.gz to stdout; `*.tar.gz`/`*.tgz` writes one; anything else is a new directory. */
export function backupTarget(dest: string): BackupTarget {
  if (dest === '-') return { kind: 'stdout' };
  const resolved = path.resolve(dest);
  if (/\.(tar\.gz|tgz)$/i.test(dest)) return { kind: 'archive', file: resolved };
  return { kind: 'directory', dir: resolved };
}

/** package.json's version; compiled, this file runs from dist/src/cli/backup/. */
function mailroomVersion(): string {
  try {
    const pkg = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'),
    ) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface BackupOptions {
  readonly config: Config;
  /** Directory to create, `*.tar.gz`, or `-` (tar.gz on `stdout`). Default: `$DATA_DIR/backups/<name>`. */
  readonly dest?: string | undefined;
  readonly stdout?: NodeJS.WritableStream;
  readonly log?: Log;
  readonly now?: Date;
}

export interface BackupResult {
  /** The directory or archive written; `-` for stdout. */
  readonly path: string;
  readonly format: 'directory' | 'tar.gz';
  readonly manifest: BackupManifest;
}

/** Copies DATA_DIR's files into `<backupDir>/data` (pass 1 and 2 share `copied`). */
async function copyPass(
  dataDir: string,
  backupDir: string,
  keep: (rel: string) => boolean,
  copied: Map<string, BackupFile>,
  vanished: Set<string>,
): Promise<void> {
  for (const rel of await listFiles(dataDir, keep)) {
    if (copied.has(rel)) continue;
    const result = await copyOne(path.join(dataDir, rel), path.join(backupDir, DATA_SUBDIR, rel));
    if (result === null) {
      vanished.add(rel);
      continue;
    }
    vanished.delete(rel);
    copied.set(rel, { path: rel, ...result });
  }
}

/** Writes a backup into the new directory `backupDir`. */
async function writeBackupDir(
  config: Config,
  backupDir: string,
  log: Log,
  now: Date,
): Promise<BackupManifest> {
  const dataDir = config.dataDir;
  const dbFile = sqlitePath(config);
  if (!fs.existsSync(dataDir)) throw new Error(`DATA_DIR ${dataDir} does not exist`);
  await fsp.mkdir(backupDir, { recursive: false, mode: 0o700 });
  const dbFiles = liveDbFiles(dataDir, dbFile);
  const keep = (rel: string): boolean =>
    isBackedUp(rel, dbFiles) && !isInside(backupDir, path.join(dataDir, rel));
  const copied = new Map<string, BackupFile>();
  const vanished = new Set<string>();

  await copyPass(dataDir, backupDir, keep, copied, vanished);
  const started = Date.now();
  const database = await snapshotDatabase(dbFile, path.join(backupDir, DB_FILE));
  log(`database: ${database.bytes} bytes in ${Date.now() - started} ms (online backup)`);
  // Pass 2: files that appeared while the snapshot ran (a message queued meanwhile).
  await copyPass(dataDir, backupDir, keep, copied, vanished);
  for (const rel of supersededQueueFiles([...copied.keys()])) {
    await fsp.rm(path.join(backupDir, DATA_SUBDIR, rel), { force: true });
    copied.delete(rel);
  }

  const secretFile = path.join(dataDir, 'secret.key');
  let secretKey: BackupManifest['secretKey'];
  if (config.secretKey !== undefined) {
    secretKey = { source: 'env', fingerprint: secretFingerprint(config.secretKey) };
    log('SECRET_KEY is set in the environment: it is NOT in this backup; keep it in your secret store');
  } else if (copied.has('secret.key')) {
    secretKey = {
      source: 'file',
      fingerprint: secretFingerprint(fs.readFileSync(secretFile, 'utf8').trim()),
    };
  } else {
    secretKey = { source: 'missing', fingerprint: null };
    log('warning: no secret.key in DATA_DIR and no SECRET_KEY: sealed data in this backup cannot be opened');
  }

  const files = [...copied.values()].sort((a, b) => a.path.localeCompare(b.path));
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    mailroomVersion: mailroomVersion(),
    hostname: os.hostname(),
    dataDir,
    database: { file: DB_FILE, ...database },
    secretKey,
    files,
    vanished: [...vanished].sort(),
  };
  const manifestFile = path.join(backupDir, MANIFEST);
  await fsp.writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await fsyncPath(manifestFile);
  await fsyncPath(backupDir);
  const queued = files.filter((f) => f.path.startsWith(`${QUEUE_DIR}/`)).length;
  log(`files: ${files.length} (${queued} in the MTA queue), ${vanished.size} vanished during the copy`);
  return manifest;
}

/**
 * An online backup of DATA_DIR, safe while the appliance runs. See the module
 * comment for what is in it.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const { config } = options;
  refuseOnPostgres(config.databaseUrl, 'backup');
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const name = defaultBackupName(now);
  const target = backupTarget(options.dest ?? path.join(config.dataDir, 'backups', name));

  if (target.kind === 'directory') {
    if (fs.existsSync(target.dir)) throw new Error(`${target.dir} already exists; name a new directory`);
    await fsp.mkdir(path.dirname(target.dir), { recursive: true, mode: 0o700 });
    const manifest = await writeBackupDir(config, target.dir, log, now);
    return { path: target.dir, format: 'directory', manifest };
  }

  // Archives are staged next to their destination (stdout: inside DATA_DIR, excluded from the copy).
  const stagingParent = target.kind === 'archive' ? path.dirname(target.file) : config.dataDir;
  if (target.kind === 'archive' && fs.existsSync(target.file))
    throw new Error(`${target.file} already exists; name a new file`);
  await fsp.mkdir(stagingParent, { recursive: true, mode: 0o700 });
  const staging = await fsp.mkdtemp(path.join(stagingParent, '.backup-staging-'));
  try {
    const manifest = await writeBackupDir(config, path.join(staging, name), log, now);
    if (target.kind === 'archive') {
      const partial = `${target.file}.partial`;
      await runCommand('tar', ['-czf', partial, '-C', staging, name]);
      await fsp.chmod(partial, 0o600);
      await fsyncPath(partial);
      await fsp.rename(partial, target.file);
      return { path: target.file, format: 'tar.gz', manifest };
    }
    await runCommand('tar', ['-czf', '-', '-C', staging, name], { stdout: options.stdout ?? process.stdout });
    return { path: '-', format: 'tar.gz', manifest };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}
