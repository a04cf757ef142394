import path from 'node:path';

/** Haraka's temp files (`__tmp__.<name>`): incomplete, deleted by Haraka at start. */
export const HARAKA_TMP_PREFIX = '__tmp__.';
export const QUEUE_DIR = 'mta-queue';
/** Top-level entries of DATA_DIR never copied. */
export const EXCLUDED_TOP = new Set(['mta', 'backups']);
export const STAGING_PREFIXES = ['.backup-staging-', '.restore-staging-', 'pre-restore-'];
/** Never part of the data: a file system's own directory at the root of a fresh volume. */
export const IGNORED_TOP = new Set(['lost+found']);

/** True when `child` is `parent` or inside it (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether a DATA_DIR entry (relative, `/`-separated) is copied into a backup.
 * `dbFiles` are the live database files when they lie inside DATA_DIR.
 */
export function isBackedUp(rel: string, dbFiles: ReadonlySet<string>): boolean {
  const parts = rel.split('/');
  const top = parts[0] ?? '';
  if (EXCLUDED_TOP.has(top) || IGNORED_TOP.has(top)) return false;
  if (STAGING_PREFIXES.some((p) => top.startsWith(p))) return false;
  if (dbFiles.has(rel)) return false;
  const base = parts[parts.length - 1] ?? '';
  if (top === QUEUE_DIR && base.startsWith(HARAKA_TMP_PREFIX)) return false;
  return true;
}

/**
 * Haraka names a queue file `arrival_nextattempt_attempts_pid_uid_counter_host`
 * and renames it on every deferral (new next attempt, attempt count, counter).
 * `arrival_uid` names the message across renames.
 */
export function queueFileIdentity(
  name: string,
): { readonly id: string; readonly attempts: number; readonly nextAttempt: number } | null {
  const p = name.split('_');
  if (p.length !== 7) return null;
  const [arrival, next, attempts, , uid] = p;
  if (!/^\d+$/.test(arrival ?? '') || !/^\d+$/.test(next ?? '') || !/^\d+$/.test(attempts ?? '')) return null;
  return { id: `${arrival}_${uid}`, attempts: Number(attempts), nextAttempt: Number(next) };
}

/**
 * Queue files of one message copied under two names (Haraka deferred it between
 * the passes): keep the latest state, so the message is not delivered twice
 * after a restore. Returns the relative paths to drop.
 */
export function supersededQueueFiles(paths: readonly string[]): string[] {
  const latest = new Map<string, { path: string; attempts: number; nextAttempt: number }>();
  const drop: string[] = [];
  for (const p of paths) {
    if (!p.startsWith(`${QUEUE_DIR}/`)) continue;
    const ident = queueFileIdentity(p.slice(QUEUE_DIR.length + 1));
    if (ident === null) continue;
    const seen = latest.get(ident.id);
    if (seen === undefined) {
      latest.set(ident.id, { path: p, attempts: ident.attempts, nextAttempt: ident.nextAttempt });
      continue;
    }
    const newer =
      ident.attempts > seen.attempts ||
      (ident.attempts === seen.attempts && ident.nextAttempt > seen.nextAttempt);
    if (newer) {
      drop.push(seen.path);
      latest.set(ident.id, { path: p, attempts: ident.attempts, nextAttempt: ident.nextAttempt });
    } else {
      drop.push(p);
    }
  }
  return drop;
}

/** The live database files, relative to DATA_DIR when they are inside it. */
export function liveDbFiles(dataDir: string, dbFile: string): Set<string> {
  const out = new Set<string>();
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const f = `${dbFile}${suffix}`;
    if (isInside(dataDir, f)) out.add(path.relative(dataDir, f).split(path.sep).join('/'));
  }
  return out;
}
