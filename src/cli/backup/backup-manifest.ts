import crypto from 'node:crypto';

export const BACKUP_FORMAT = 'mailroom-backup';
export const BACKUP_VERSION = 1;
export const MANIFEST = 'manifest.json';
export const DB_FILE = 'mail.db';
export const DATA_SUBDIR = 'data';

export interface BackupFile {
  /** Relative to DATA_DIR, `/`-separated. */
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  /** Permission bits (e.g. 0o600 = 384). */
  readonly mode: number;
}

export interface BackupManifest {
  readonly format: typeof BACKUP_FORMAT;
  readonly version: number;
  readonly createdAt: string;
  readonly mailroomVersion: string;
  readonly hostname: string;
  readonly dataDir: string;
  readonly database: { readonly file: string; readonly bytes: number; readonly sha256: string };
  /**
   * Where the master secret came from. `env`: SECRET_KEY was set, so the backup
   * does not contain it and a restore needs the same value. The fingerprint is a
   * one-way hash, to tell whether a restore runs with the same key.
   */
  readonly secretKey: { readonly source: 'file' | 'env' | 'missing'; readonly fingerprint: string | null };
  readonly files: readonly BackupFile[];
  /** Files that disappeared between listing and copying (a queue file delivered meanwhile). */
  readonly vanished: readonly string[];
}

/** `20250102T030405Z`: sortable, no characters a file system or tar dislikes. */
export function backupStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

export function defaultBackupName(date: Date): string {
  return `mailroom-backup-${backupStamp(date)}`;
}

/** A one-way fingerprint of the master secret (safe to store next to the backup). */
export function secretFingerprint(secret: string): string {
  return crypto
    .createHash('sha256')
    .update(`mailroom-secret-fingerprint\0${secret}`)
    .digest('hex')
    .slice(0, 16);
}

/** A manifest path must stay inside DATA_DIR: relative, no `..`, no empty or odd segments. */
export function isSafeRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Checks a parsed manifest.json; returns it typed, or throws naming the first problem. */
export function validateManifest(value: unknown): BackupManifest {
  const fail = (why: string): never => {
    throw new Error(`not a usable Mailroom backup: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('manifest.json is not an object');
  const m = value as Record<string, unknown>;
  if (m.format !== BACKUP_FORMAT) return fail(`format is ${JSON.stringify(m.format)}`);
  if (typeof m.version !== 'number' || m.version < 1) return fail('no version');
  if (m.version > BACKUP_VERSION)
    return fail(`version ${m.version} is newer than this Mailroom understands (${BACKUP_VERSION})`);
  const db = m.database as Record<string, unknown> | undefined;
  if (
    db?.file !== DB_FILE ||
    typeof db.bytes !== 'number' ||
    typeof db.sha256 !== 'string' ||
    !HEX64.test(db.sha256)
  )
    return fail('database entry missing or malformed');
  const secret = m.secretKey as Record<string, unknown> | undefined;
  if (!secret || !['file', 'env', 'missing'].includes(secret.source as string))
    return fail('secretKey entry missing');
  if (!Array.isArray(m.files)) return fail('files list missing');
  const seen = new Set<string>();
  for (const f of m.files as unknown[]) {
    const file = f as Record<string, unknown>;
    if (typeof file.path !== 'string' || !isSafeRelativePath(file.path))
      return fail(`unsafe or missing file path ${JSON.stringify(file.path)}`);
    if (seen.has(file.path)) return fail(`duplicate file ${file.path}`);
    seen.add(file.path);
    if (typeof file.bytes !== 'number' || typeof file.sha256 !== 'string' || !HEX64.test(file.sha256))
      return fail(`file ${file.path}: size or hash missing`);
    if (typeof file.mode !== 'number' || file.mode < 0 || file.mode > 0o777)
      return fail(`file ${file.path}: bad mode`);
  }
  return value as BackupManifest;
}
