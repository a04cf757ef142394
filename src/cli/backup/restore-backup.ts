import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { sqlitePath } from '../../config';
import { detectRunningAppliance } from '../appliance-probe';
import { IGNORED_TOP, isInside, STAGING_PREFIXES } from './backed-up-files';
import type { BackupManifest } from './backup-manifest';
import { backupStamp, DATA_SUBDIR, DB_FILE, secretFingerprint } from './backup-manifest';
import type { Log } from './create-backup';
import { fsyncPath } from '../../shared/sync-directory';
import { refuseOnPostgres } from './create-backup';
import { openBackup, verifyBackup } from './verify-backup';

export interface RestoreOptions {
  readonly config: Config;
  /** A backup directory, a `.tar.gz`, or `-` (a tar.gz on `stdin`). */
  readonly source: string;
  /** Move existing data aside instead of refusing; accept a different SECRET_KEY. */
  readonly force?: boolean;
  readonly stdin?: NodeJS.ReadableStream;
  readonly log?: Log;
  readonly now?: Date;
}

export interface RestoreResult {
  readonly dataDir: string;
  readonly database: string;
  readonly files: number;
  /** Where the data that was in DATA_DIR went (with --force), if any. */
  readonly movedAside: string | null;
  readonly manifest: BackupManifest;
  readonly warnings: readonly string[];
}

/** What in DATA_DIR (and the database) a restore would replace. */
function existingData(dataDir: string, dbFile: string): string[] {
  const found: string[] = [];
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    if (fs.existsSync(`${dbFile}${suffix}`)) found.push(`${dbFile}${suffix}`);
  if (fs.existsSync(dataDir)) {
    for (const entry of fs.readdirSync(dataDir)) {
      const full = path.join(dataDir, entry);
      if (found.includes(full)) continue;
      if (STAGING_PREFIXES.some((p) => entry.startsWith(p)) || entry === 'backups' || IGNORED_TOP.has(entry))
        continue;
      found.push(full);
    }
  }
  return found;
}

async function copyInto(from: string, to: string, mode: number): Promise<void> {
  await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  const tmp = `${to}.restoring`;
  await fsp.copyFile(from, tmp);
  await fsp.chmod(tmp, mode);
  await fsyncPath(tmp);
  await fsp.rename(tmp, to);
}

/**
 * Run as root (a one-off `docker run --user root`, a host's root shell), a restore
 * hands what it wrote to DATA_DIR's owner, so the appliance's user can open it.
 */
async function chownLikeDataDir(dataDir: string): Promise<void> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  const { uid, gid } = await fsp.stat(dataDir);
  if (uid === 0) return;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      await fsp.lchown(p, uid, gid);
      if (entry.isDirectory()) await walk(p);
    }
  };
  await walk(dataDir);
}

/**
 * Restores a backup into DATA_DIR. Refuses while the appliance runs (database
 * lock, our listeners), into a DATA_DIR that already holds data unless `force`
 * (which moves that data into `DATA_DIR/pre-restore-<stamp>/`), and with a
 * SECRET_KEY other than the backup's unless `force`.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const { config } = options;
  refuseOnPostgres(config.databaseUrl, 'restore');
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const dataDir = config.dataDir;
  const dbFile = sqlitePath(config);
  const warnings: string[] = [];
  const warn = (w: string): void => {
    warnings.push(w);
    log(`warning: ${w}`);
  };

  const refuseIfRunning = async (): Promise<readonly string[]> => {
    const activity = await detectRunningAppliance(config);
    if (activity.running)
      throw new Error(`the appliance is running (${activity.evidence.join('; ')}): stop it before restoring`);
    return activity.foreign;
  };
  await refuseIfRunning();

  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const opened = await openBackup(options.source, dataDir, options.stdin);
  try {
    const backupDir = opened.dir;

    const manifest = await verifyBackup(backupDir);
    log(
      `backup of ${manifest.createdAt} (Mailroom ${manifest.mailroomVersion}, ${manifest.files.length} files) verified`,
    );

    // Again, right before writing: it may have been started while the backup was read.
    for (const f of await refuseIfRunning()) warn(`another service on a Mailroom port: ${f}`);

    const current = config.secretKey !== undefined ? secretFingerprint(config.secretKey) : null;
    if (
      current !== null &&
      manifest.secretKey.fingerprint !== null &&
      current !== manifest.secretKey.fingerprint
    ) {
      const msg =
        'SECRET_KEY differs from the key the backup was taken with: sealed DKIM keys and webhook secrets would not open';
      if (!options.force) throw new Error(`${msg} (--force to restore anyway)`);
      warn(msg);
    }
    if (manifest.secretKey.source === 'env' && current === null)
      warn(
        'the backup was taken with SECRET_KEY set and holds no secret.key: set the same SECRET_KEY before starting',
      );
    if (manifest.secretKey.source === 'missing') warn('the backup holds no master secret');

    let movedAside: string | null = null;
    const existing = existingData(dataDir, dbFile);
    if (existing.length > 0) {
      if (!options.force)
        throw new Error(
          `DATA_DIR already holds data (${existing.map((e) => path.basename(e)).join(', ')}): ` +
            'pass --force to move it aside into DATA_DIR/pre-restore-<time>/ and restore',
        );
      movedAside = path.join(dataDir, `pre-restore-${backupStamp(now)}`);
      await fsp.mkdir(movedAside, { mode: 0o700 });
      for (const p of existing) {
        const dest = isInside(dataDir, p)
          ? path.join(movedAside, path.relative(dataDir, p))
          : path.join(movedAside, 'database', path.basename(p));
        await fsp.mkdir(path.dirname(dest), { recursive: true, mode: 0o700 });
        await fsp.rename(p, dest);
      }
      log(`moved the existing data aside into ${movedAside}`);
    }

    const restored: string[] = [];
    for (const f of manifest.files) {
      const to = path.join(dataDir, ...f.path.split('/'));
      await copyInto(path.join(backupDir, DATA_SUBDIR, f.path), to, f.path === 'secret.key' ? 0o600 : f.mode);
      restored.push(to);
    }
    // A -wal left beside a restored database would be replayed into it: none may exist now.
    for (const suffix of ['-wal', '-shm', '-journal']) await fsp.rm(`${dbFile}${suffix}`, { force: true });
    await copyInto(path.join(backupDir, DB_FILE), dbFile, 0o600);
    restored.push(dbFile);
    for (const dir of new Set(restored.map((p) => path.dirname(p)))) await fsyncPath(dir);
    await chownLikeDataDir(dataDir);
    if (!isInside(dataDir, dbFile)) await chownLikeDataDir(path.dirname(dbFile));
    log(`restored ${manifest.files.length} files and the database into ${dataDir}`);
    return { dataDir, database: dbFile, files: manifest.files.length, movedAside, manifest, warnings };
  } finally {
    await opened.close();
  }
}
