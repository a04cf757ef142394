import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { databaseKind, sqlitePath } from '../../config';
import { databaseInUse } from '../appliance-probe';
import type { CheckResult, CheckStatus } from './check-result';
import { result } from './check-result';
import { formatBytes } from './disk-check';

export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/** DATA_DIR holds the master secret and every message: nobody else should read it. */
export function evaluateDataDirMode(
  dir: string,
  mode: number,
  ownerUid: number,
  processUid: number | null,
): { status: CheckStatus; notes: string[]; hints: string[] } {
  const notes = [`mode ${octal(mode)}`];
  const hints: string[] = [];
  let status: CheckStatus = 'ok';
  if ((mode & 0o077) !== 0) {
    status = 'warn';
    notes.push('readable by other users');
    hints.push(`chmod 700 ${dir}`);
  }
  if (processUid !== null && ownerUid !== processUid) {
    status = 'warn';
    notes.push(`owned by uid ${ownerUid}, not by this user (uid ${processUid})`);
    hints.push(
      `chown -R ${processUid} ${dir} (in the image the appliance runs as node, uid 1000; a bind mount must belong to it)`,
    );
  }
  return { status, notes, hints };
}

export async function checkDataDir(config: Config): Promise<CheckResult> {
  const dir = config.dataDir;
  const title = 'DATA_DIR';
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(dir);
  } catch {
    const parent = path.dirname(dir);
    try {
      await fsp.access(parent, fs.constants.W_OK);
      return result('data_dir', title, 'warn', `${dir} does not exist yet; the first start creates it`);
    } catch {
      return result('data_dir', title, 'fail', `${dir} does not exist and ${parent} is not writable`, [
        `mkdir -p ${dir} and give it to the user the appliance runs as.`,
      ]);
    }
  }
  if (!stat.isDirectory()) return result('data_dir', title, 'fail', `${dir} is not a directory`);
  const probe = path.join(dir, `.doctor-${process.pid}`);
  try {
    const handle = await fsp.open(probe, 'wx', 0o600);
    await handle.write('ok');
    await handle.sync();
    await handle.close();
    await fsp.rm(probe, { force: true });
  } catch (err) {
    return result(
      'data_dir',
      title,
      'fail',
      `${dir} is not writable: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      [`Give ${dir} to uid ${uid ?? '?'} (chown -R), mode 700.`],
    );
  }
  const mode = evaluateDataDirMode(dir, stat.mode, stat.uid, uid);
  const details: Record<string, unknown> = { mode: octal(stat.mode), ownerUid: stat.uid };
  const notes = [`${dir} is writable`, ...mode.notes];
  // On PostgreSQL the database is not under DATA_DIR: its check is the server's.
  const dbFile = databaseKind(config.databaseUrl) === 'sqlite' ? sqlitePath(config) : undefined;
  const db = dbFile === undefined ? undefined : fs.statSync(dbFile, { throwIfNoEntry: false });
  if (dbFile === undefined) {
    notes.push('database on PostgreSQL');
  } else if (db === undefined) {
    notes.push('no database yet');
  } else {
    const wal = fs.statSync(`${dbFile}-wal`, { throwIfNoEntry: false });
    notes.push(`database ${formatBytes(db.size)}${wal ? ` (+ ${formatBytes(wal.size)} WAL)` : ''}`);
    try {
      details.databaseInUse = databaseInUse(dbFile);
    } catch (err) {
      details.databaseInUse = `unknown: ${(err as Error).message}`;
    }
  }
  const queueDir = path.join(dir, 'mta-queue');
  try {
    const queued = (await fsp.readdir(queueDir)).filter((f) => /^\d+_/.test(f)).length;
    notes.push(`${queued} message${queued === 1 ? '' : 's'} in the MTA queue`);
    details.queued = queued;
  } catch {
    /* not created yet */
  }
  return result('data_dir', title, mode.status, notes.join(', '), mode.hints, details);
}
