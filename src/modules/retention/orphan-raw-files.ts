import fs from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { foreignRawReference, referencedRawPaths, unkeyedIntakePaths } from './raw-references.repository';

/** `<yyyy-mm-dd>`: the day directories storeRawMessage creates (src/modules/inbound/raw-file-store.ts). */
const DAY_DIR = /^\d{4}-\d{2}-\d{2}$/;
/** `<32 hex>.eml`, or the `.tmp` a crash left mid-write. Anything else is not ours to delete. */
const RAW_FILE = /^[0-9a-f]{32}\.(eml|tmp)$/;
const DAY_MS = 86_400_000;

export interface OrphanSweepOptions {
  readonly db: Kysely<Database>;
  readonly dataDir: string;
  readonly now: Date;
  /** A file modified less than this long ago is left alone, referenced or not. */
  readonly minAgeMs: number;
  /** File names looked up per database round. */
  readonly batchSize?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface OrphanSweepResult {
  /** Unreferenced raw files (and leftover `.tmp` files) deleted. */
  readonly deleted: number;
  /** Empty day directories (two days old or more) removed. */
  readonly directories: number;
  /** Set when the sweep refused to run, with a raw path the database names elsewhere. */
  readonly skipped?: { readonly reason: 'foreign_raw_path'; readonly path: string } | undefined;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Deletes `file` if it is still a regular file last modified before `cutoffMs`. */
async function removeIfOld(file: string, cutoffMs: number): Promise<boolean> {
  let stat;
  try {
    stat = await fs.lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  if (!stat.isFile() || stat.mtimeMs >= cutoffMs) return false;
  await fs.rm(file, { force: true });
  return true;
}

/**
 * Raw inbound files nothing refers to: written by the MX or `POST /internal/bounces`
 * and then orphaned by a crash between the file's fsync and its job's commit, or
 * left by a handler whose delete failed. A file is kept while an inbound message
 * row or any job (whatever its state, so a failed job keeps its file as long as
 * the job row is kept) names it, and while it is younger than `minAgeMs`: a
 * message in flight has its file before its job, never the other way round.
 *
 * Refuses to delete anything when the database names a raw path outside
 * `$DATA_DIR/inbound/` (a DATA_DIR restored under another path): every file would
 * look unreferenced then.
 */
export async function sweepOrphanRawFiles(o: OrphanSweepOptions): Promise<OrphanSweepResult> {
  const root = path.join(o.dataDir, 'inbound');
  const prefix = `${root}${path.sep}`;
  const unkeyed = new Set(await unkeyedIntakePaths(o.db));
  const foreign =
    (await foreignRawReference(o.db, prefix)) ?? [...unkeyed].find((p) => !p.startsWith(prefix));
  if (foreign !== undefined) {
    return { deleted: 0, directories: 0, skipped: { reason: 'foreign_raw_path', path: foreign } };
  }
  const batchSize = o.batchSize ?? 500;
  const cutoffMs = o.now.getTime() - o.minAgeMs;
  // Day directories named two or more days before `now` can no longer receive a file.
  const oldDay = new Date(o.now.getTime() - 2 * DAY_MS).toISOString().slice(0, 10);
  let deleted = 0;
  let directories = 0;

  for (const day of (await listDir(root)).sort()) {
    if (!DAY_DIR.test(day)) continue;
    const dir = path.join(root, day);
    const names = (await listDir(dir)).filter((n) => RAW_FILE.test(n));
    for (let i = 0; i < names.length && !o.signal?.aborted; i += batchSize) {
      const files = names.slice(i, i + batchSize).map((n) => path.join(dir, n));
      const referenced = await referencedRawPaths(
        o.db,
        files.filter((f) => f.endsWith('.eml')),
      );
      for (const file of files) {
        if (referenced.has(file) || unkeyed.has(file)) continue;
        if (await removeIfOld(file, cutoffMs)) deleted++;
      }
      await yieldTurn();
    }
    if (o.signal?.aborted) break;
    if (day <= oldDay) {
      try {
        await fs.rmdir(dir);
        directories++;
      } catch {
        // Not empty (messages still stored there), or gone: either way nothing to do.
      }
    }
  }
  return { deleted, directories, skipped: undefined };
}
