import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { DB_RAW_PREFIX } from '../inbound';
import type { OrphanSweepResult } from './orphan-raw-files';
import {
  deleteRawRows,
  oldRawRowIds,
  referencedRawPaths,
  unkeyedIntakePaths,
} from './raw-references.repository';

export interface OrphanRowSweepOptions {
  readonly db: Kysely<Database>;
  readonly now: Date;
  /** A row created less than this long ago is left alone, referenced or not. */
  readonly minAgeMs: number;
  /** Rows looked at per database round. */
  readonly batchSize?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * `raw_messages` rows nothing refers to (the database raw store, PostgreSQL): a row
 * is inserted with the job naming it, so a crash cannot orphan one; what is left is
 * the copy of a message row or job that went away without deleting its copy (a
 * delete that failed after the row's commit, a failed job pruned by retention, an
 * account deleted). The same references keep a row as keep a file
 * (raw-references.repository.ts), and the same minimum age.
 */
export async function sweepOrphanRawRows(o: OrphanRowSweepOptions): Promise<OrphanSweepResult> {
  const unkeyed = new Set(await unkeyedIntakePaths(o.db));
  const createdBefore = new Date(o.now.getTime() - o.minAgeMs).toISOString();
  const batchSize = o.batchSize ?? 500;
  let deleted = 0;
  let after = '';
  while (!o.signal?.aborted) {
    const ids = await oldRawRowIds(o.db, { after, createdBefore, limit: batchSize });
    const last = ids.at(-1);
    if (last === undefined) break;
    after = last;
    const refs = ids.map((id) => `${DB_RAW_PREFIX}${id}`);
    const referenced = await referencedRawPaths(o.db, refs);
    const orphans = ids.filter((_id, i) => {
      const ref = refs[i] ?? '';
      return !referenced.has(ref) && !unkeyed.has(ref);
    });
    deleted += await deleteRawRows(o.db, orphans, createdBefore);
    await yieldTurn();
  }
  return { deleted, directories: 0, skipped: undefined };
}
