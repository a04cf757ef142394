import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import type { CheckResult } from './check-result';
import { result } from './check-result';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * Free space on DATA_DIR's file system: mail, queue and database all grow there.
 * `floorBytes` is DISK_FREE_FLOOR_MB, under which the appliance refuses new mail.
 */
export function evaluateDisk(
  freeBytes: number,
  totalBytes: number,
  freeInodes?: number,
  floorBytes = 256 * MiB,
): CheckResult {
  const pct = totalBytes > 0 ? Math.round((freeBytes / totalBytes) * 100) : 0;
  const summary = `${formatBytes(freeBytes)} free of ${formatBytes(totalBytes)} (${pct} %)`;
  if (freeBytes < floorBytes)
    return result('disk', 'Disk space', 'fail', summary, [
      `Free space on the DATA_DIR volume: under DISK_FREE_FLOOR_MB (${formatBytes(floorBytes)}) new mail is refused (API 503, SMTP 452) and /ready answers 503.`,
    ]);
  if (freeInodes !== undefined && freeInodes < 10_000)
    return result('disk', 'Disk space', 'warn', `${summary}; only ${freeInodes} inodes left`, [
      'Each queued message is one file: free inodes on the DATA_DIR volume.',
    ]);
  if (freeBytes < 2 * GiB || pct < 10)
    return result('disk', 'Disk space', 'warn', summary, [
      'Plan more space for DATA_DIR: the database, inbound mail and the MTA queue live there.',
    ]);
  return result('disk', 'Disk space', 'ok', summary);
}

export function formatBytes(n: number): string {
  if (n >= GiB) return `${(n / GiB).toFixed(1)} GiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export async function checkDisk(config: Config): Promise<CheckResult> {
  let dir = config.dataDir;
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    const s = await fsp.statfs(dir);
    const floor = config.diskFreeFloorMb * MiB;
    return evaluateDisk(s.bavail * s.bsize, s.blocks * s.bsize, s.ffree > 0 ? s.ffree : undefined, floor);
  } catch (err) {
    return result(
      'disk',
      'Disk space',
      'warn',
      `cannot read free space of ${dir}: ${(err as Error).message}`,
    );
  }
}
