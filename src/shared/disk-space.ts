import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../config';
import { databaseKind, sqlitePath } from '../config';

/**
 * The free-space floor (issue 17, finding 6). A writer that runs out of disk
 * mid-write can leave a half-written file behind a success answer (Haraka's
 * queue file) or wedge the database for the mail it already accepted; so every
 * writer that accepts new work (POST /v1/emails, the MX, submission, the
 * injection listener) refuses it with a retryable answer while a volume it
 * writes to is under the floor, and `/ready` reports not-ready. The floor
 * leaves room for the work already accepted: status rows, delivery outcomes,
 * the WAL and its checkpoint.
 */

const MiB = 1024 * 1024;

/**
 * Every message is one file somewhere (queue file, inbound raw file): a volume
 * out of inodes is as full as one out of bytes. Only applies to file systems
 * that report an inode count (btrfs and others report 0: no fixed table).
 */
export const MIN_FREE_INODES = 1000;

/** How long one reading of the volumes is reused: the hot paths pay a statfs at most this often. */
export const DISK_SPACE_MAX_AGE_MS = 1000;

export interface VolumeSpace {
  /** The directory measured (a missing one is measured at its nearest existing parent). */
  readonly path: string;
  /** Bytes an unprivileged process can still allocate (statfs bavail). */
  readonly freeBytes: number;
  readonly totalBytes: number;
  /** Undefined on file systems without a fixed inode table. */
  readonly freeInodes: number | undefined;
}

export interface SpaceRequest {
  /**
   * Share of the floor that must stay free: below 1 for work that drains what was
   * already accepted (the injection hand-off), so that it goes on after the front
   * doors have stopped.
   */
  readonly fraction?: number | undefined;
  /** Bytes this work is about to write: they must fit above the floor, and count until the next reading. */
  readonly bytes?: number | undefined;
}

export interface StorageGuard {
  /** Why the work must be refused, or undefined when it fits above the floor (and is then counted). */
  shortage(request?: SpaceRequest): Promise<string | undefined>;
}

export interface StorageGuardOptions {
  readonly paths: readonly string[];
  /** 0 disables the floor (and the statfs calls). */
  readonly floorBytes: number;
  readonly maxAgeMs?: number | undefined;
}

function formatMiB(bytes: number): string {
  return `${(bytes / MiB).toFixed(1)} MiB`;
}

/** Why the volumes cannot take `bytes` more above this floor, or undefined. */
export function shortageOf(
  volumes: readonly VolumeSpace[],
  floorBytes: number,
  bytes = 0,
): string | undefined {
  for (const v of volumes) {
    if (v.freeBytes - bytes < floorBytes) {
      const need = bytes > 0 ? ` (${formatMiB(bytes)} more requested)` : '';
      return `${v.path}: ${formatMiB(v.freeBytes)} free${need}, under the floor of ${formatMiB(floorBytes)} (DISK_FREE_FLOOR_MB)`;
    }
    if (v.freeInodes !== undefined && v.freeInodes < MIN_FREE_INODES) {
      return `${v.path}: ${v.freeInodes} inodes free, under ${MIN_FREE_INODES}`;
    }
  }
  return undefined;
}

/** statfs of `dir`, or of its nearest existing parent (the MTA queue directory appears with Haraka). */
export async function volumeSpace(dir: string): Promise<VolumeSpace> {
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      const s = await fsp.statfs(p);
      return {
        path: p,
        freeBytes: s.bavail * s.bsize,
        totalBytes: s.blocks * s.bsize,
        freeInodes: s.files > 0 ? s.ffree : undefined,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(p) === p) throw err;
    }
  }
}

export function createStorageGuard(options: StorageGuardOptions): StorageGuard {
  const paths = [...new Set(options.paths.map((p) => path.resolve(p)))];
  const maxAgeMs = options.maxAgeMs ?? DISK_SPACE_MAX_AGE_MS;
  // The promise is cached, so concurrent callers share one round of statfs calls.
  let reading: { readonly at: number; readonly volumes: Promise<VolumeSpace[]> } | undefined;
  // Bytes admitted since that reading: a burst within one reading cannot overshoot the floor.
  let admitted = 0;
  return {
    async shortage(request = {}) {
      if (options.floorBytes === 0) return undefined;
      const now = performance.now();
      if (reading === undefined || now - reading.at > maxAgeMs) {
        reading = { at: now, volumes: Promise.all(paths.map(volumeSpace)) };
        admitted = 0;
      }
      const bytes = Math.max(0, request.bytes ?? 0);
      let shortage: string | undefined;
      try {
        shortage = shortageOf(
          await reading.volumes,
          options.floorBytes * (request.fraction ?? 1),
          admitted + bytes,
        );
      } catch (err) {
        // Unknown free space is treated as none: refusing is retryable, a lost message is not.
        return `cannot read free space: ${(err as Error).message}`;
      }
      if (shortage === undefined) admitted += bytes;
      return shortage;
    },
  };
}

export type StorageConfig = Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'diskFreeFloorMb'>;

/**
 * The volumes the appliance writes to: DATA_DIR, the database's directory and
 * the MTA queue (`$DATA_DIR/mta-queue`, src/mta/render-config.ts), each of
 * which an operator may mount separately. A PostgreSQL database is on its
 * server's disk, which is the server's to watch (docs/scaling.md): not ours.
 */
export function storagePaths(config: Pick<AppConfig, 'dataDir' | 'databaseUrl'>): string[] {
  const paths = [config.dataDir, path.join(config.dataDir, 'mta-queue')];
  if (databaseKind(config.databaseUrl) === 'sqlite') paths.push(path.dirname(sqlitePath(config)));
  return paths;
}

const guards = new Map<string, StorageGuard>();

/** One guard (one cached reading) per process and configuration. */
export function storageGuardFor(config: StorageConfig): StorageGuard {
  const paths = storagePaths(config);
  const id = `${config.diskFreeFloorMb}\n${paths.join('\n')}`;
  let guard = guards.get(id);
  if (guard === undefined) {
    guard = createStorageGuard({ paths, floorBytes: config.diskFreeFloorMb * MiB });
    guards.set(id, guard);
  }
  return guard;
}
