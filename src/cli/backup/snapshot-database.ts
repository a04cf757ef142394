import fs from 'node:fs';
import fsp from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import { fsyncPath } from '../../shared/sync-directory';
import { sha256File } from './file-io';

/**
 * SQLite's online backup API: a consistent copy of the database while the
 * appliance writes to it. One step copies every page inside one read
 * transaction (WAL: writers are not blocked, and a restart on concurrent writes
 * cannot loop). The copy is then made self-contained (rollback journal mode, no
 * -wal beside it) and checked.
 */
export async function snapshotDatabase(
  dbFile: string,
  dest: string,
): Promise<{ bytes: number; sha256: string }> {
  if (!fs.existsSync(dbFile)) throw new Error(`no database at ${dbFile} (has the appliance ever started?)`);
  const source = new BetterSqlite3(dbFile, { fileMustExist: true, timeout: 10_000 });
  try {
    await source.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new BetterSqlite3(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the database copy fails quick_check: ${String(check)}`);
  } finally {
    copy.close();
  }
  await fsyncPath(dest);
  return { bytes: (await fsp.stat(dest)).size, sha256: await sha256File(dest) };
}
