import fs from 'node:fs';
import path from 'node:path';

/**
 * Everything under DATA_DIR is private to the appliance's user: the database
 * (account data, sealed DKIM keys, sessions), the master secret, raw mail, TLS
 * keys, Haraka's queue. Issue 17, finding 10: `mail.db` was created 0644 under
 * the usual umask 022, readable by every local user.
 */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Files and directories this process (and every child it starts: the mask is
 * inherited across fork/exec, Haraka included) creates from now on are 0600 and
 * 0700, whatever mode the code creating them asks for (SQLite's -wal/-shm,
 * Haraka's queue files, a library's temp file) and whatever umask the operator's
 * shell or service manager set. Called first thing by every entry point.
 */
export function restrictNewFiles(): void {
  process.umask(0o077);
}

export interface ModeFix {
  readonly file: string;
  readonly from: number;
  readonly to: number;
}

/**
 * Written into DATA_DIR once a whole-tree pass has run. Every process has run under
 * umask 077 since, so later boots check only DATA_DIR and its direct entries (the
 * database, the secret key, TLS material): a walk of the whole raw-mail store on
 * every start would grow with the mail kept. Entries the pass could not change
 * (another owner: a root-owned bind mount as DATA_DIR itself) are logged; they do
 * not hold the marker back, or every start would walk the whole tree again.
 */
const WALKED_MARKER = '.private-modes';

/**
 * `restrictExistingFiles` for a boot: the whole tree the first time (an upgrade from
 * a version without umask 077), then DATA_DIR's own level only.
 */
export function restrictDataDir(dataDir: string): { fixed: ModeFix[]; failed: string[] } {
  const marker = path.join(dataDir, WALKED_MARKER);
  const whole = !fs.existsSync(marker);
  const result = restrictExistingFiles(dataDir, whole ? Infinity : 1);
  if (whole) fs.writeFileSync(marker, '', { mode: PRIVATE_FILE_MODE });
  return result;
}

/**
 * Tightens what an earlier version (or another umask) left under `dir`: group and
 * other permission bits are cleared on every file and directory, the owner's are
 * kept (an executable stays executable to its owner). Symbolic links are not
 * followed: a link inside DATA_DIR must not make this chmod something outside it.
 * A file that cannot be changed (another owner, a read-only mount) is reported in
 * `failed` and left as it is; the appliance still starts.
 */
export function restrictExistingFiles(
  dir: string,
  maxDepth = Infinity,
): { fixed: ModeFix[]; failed: string[] } {
  const fixed: ModeFix[] = [];
  const failed: string[] = [];
  const visit = (file: string, depth: number): void => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch {
      return; // removed meanwhile
    }
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    const wanted = stat.isDirectory() ? (mode & 0o700) | 0o700 : mode & 0o700;
    if (wanted !== mode) {
      try {
        fs.chmodSync(file, wanted);
        fixed.push({ file, from: mode, to: wanted });
      } catch {
        failed.push(file);
      }
    }
    if (!stat.isDirectory() || depth >= maxDepth) return;
    let entries: string[];
    try {
      entries = fs.readdirSync(file);
    } catch {
      failed.push(file);
      return;
    }
    for (const entry of entries) visit(path.join(file, entry), depth + 1);
  };
  visit(dir, 0);
  return { fixed, failed };
}
