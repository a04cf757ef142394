import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { BackupManifest } from './backup-manifest';
import { DATA_SUBDIR, DB_FILE, MANIFEST, validateManifest } from './backup-manifest';
import { sha256File } from './file-io';
import { runCommand } from './run-command';

/** The backup directory inside an extracted archive: the one directory holding manifest.json. */
async function findBackupRoot(dir: string): Promise<string> {
  if (fs.existsSync(path.join(dir, MANIFEST))) return dir;
  const dirs = (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  const candidates = dirs
    .map((d) => path.join(dir, d.name))
    .filter((d) => fs.existsSync(path.join(d, MANIFEST)));
  if (candidates.length !== 1 || candidates[0] === undefined)
    throw new Error('the archive holds no single backup directory with a manifest.json');
  return candidates[0];
}

/** Reads and verifies a backup directory: manifest, every file's size and hash, the database's integrity. */
export async function verifyBackup(backupDir: string): Promise<BackupManifest> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fsp.readFile(path.join(backupDir, MANIFEST), 'utf8'));
  } catch (err) {
    throw new Error(`${backupDir}: no readable manifest.json (${(err as Error).message})`, { cause: err });
  }
  const manifest = validateManifest(raw);
  const check = async (file: string, bytes: number, sha256: string, label: string): Promise<void> => {
    let size: number;
    try {
      size = (await fsp.stat(file)).size;
    } catch {
      throw new Error(`backup is incomplete: ${label} is missing`);
    }
    if (size !== bytes)
      throw new Error(`backup is damaged: ${label} has ${size} bytes, the manifest says ${bytes}`);
    if ((await sha256File(file)) !== sha256) throw new Error(`backup is damaged: ${label} fails its SHA-256`);
  };
  const dbCopy = path.join(backupDir, DB_FILE);
  await check(dbCopy, manifest.database.bytes, manifest.database.sha256, DB_FILE);
  for (const f of manifest.files)
    await check(path.join(backupDir, DATA_SUBDIR, f.path), f.bytes, f.sha256, f.path);
  const db = new BetterSqlite3(dbCopy, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`backup database fails quick_check: ${String(result)}`);
  } finally {
    db.close();
  }
  return manifest;
}

/**
 * A backup directory to read: the source itself, or an archive (a file or `-`,
 * stdin) extracted into a staging directory under `stagingParent`.
 */
export async function openBackup(
  source: string,
  stagingParent: string,
  stdin: NodeJS.ReadableStream | undefined,
): Promise<{ dir: string; close: () => Promise<void> }> {
  if (source !== '-' && !/\.(tar\.gz|tgz)$/i.test(source)) {
    const dir = path.resolve(source);
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`${dir} is not a backup directory or a .tar.gz`);
    return { dir, close: () => Promise.resolve() };
  }
  const staging = await fsp.mkdtemp(path.join(stagingParent, '.restore-staging-'));
  const close = (): Promise<void> => fsp.rm(staging, { recursive: true, force: true });
  try {
    const archive = source === '-' ? '-' : path.resolve(source);
    await runCommand(
      'tar',
      ['-xzf', archive, '-C', staging, '--no-same-owner'],
      source === '-' ? { stdin: stdin ?? process.stdin } : {},
    );
    return { dir: await findBackupRoot(staging), close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Checks a backup without restoring it (no DATA_DIR, no running check): the
 * manifest, every file's SHA-256, and the database's integrity.
 */
export async function checkBackup(source: string, stdin?: NodeJS.ReadableStream): Promise<BackupManifest> {
  const opened = await openBackup(source, os.tmpdir(), stdin);
  try {
    return await verifyBackup(opened.dir);
  } finally {
    await opened.close();
  }
}
