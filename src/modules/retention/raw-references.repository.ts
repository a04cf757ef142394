import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Who may refer to a raw inbound file (docs/inbound.md, "Raw messages"): the inbound
 * message row that owns it (`raw_path`, unique), and the job it was written for,
 * whatever that job's state: MX jobs by their dedupe key `mx:<path>`
 * (src/mta/inbound-intake.ts), `POST /internal/bounces` jobs (no key) by payload.
 */
export const INTAKE_QUEUES = ['bounce-processing', 'inbound-processing'] as const;
const MX_KEY = 'mx:';

/** The subset of `paths` that a message row or an MX job names. */
export async function referencedRawPaths(
  db: Kysely<Database>,
  paths: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  if (paths.length === 0) return found;
  const rows = await db
    .selectFrom('inbound_messages')
    .select('raw_path')
    .where('raw_path', 'in', [...paths])
    .execute();
  for (const r of rows) found.add(r.raw_path);
  const jobs = await db
    .selectFrom('jobs')
    .select('dedupe_key')
    .where('queue', 'in', [...INTAKE_QUEUES])
    .where(
      'dedupe_key',
      'in',
      paths.map((p) => `${MX_KEY}${p}`),
    )
    .execute();
  for (const j of jobs) if (j.dedupe_key !== null) found.add(j.dedupe_key.slice(MX_KEY.length));
  return found;
}

/**
 * Raw paths named by intake jobs without a dedupe key (`POST /internal/bounces`):
 * few, and bounded by the retention of finished jobs.
 */
export async function unkeyedIntakePaths(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('payload')
    .where('queue', 'in', [...INTAKE_QUEUES])
    .where('dedupe_key', 'is', null)
    .execute();
  const paths: string[] = [];
  for (const r of rows) {
    try {
      const p = JSON.parse(r.payload) as { rawPath?: unknown } | null;
      if (typeof p?.rawPath === 'string') paths.push(p.rawPath);
    } catch {
      // A payload that does not parse names no file.
    }
  }
  return paths;
}

/**
 * Some raw path the database names outside `prefix` (`$DATA_DIR/inbound/`), if
 * any: a DATA_DIR restored or moved to another path, whose rows still name the old
 * one. Index range reads only (the unique raw_path index, jobs_dedupe).
 */
export async function foreignRawReference(db: Kysely<Database>, prefix: string): Promise<string | undefined> {
  // `prefix` ends with the path separator; the character after it bounds the range.
  const end = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
  const below = await db
    .selectFrom('inbound_messages')
    .select('raw_path')
    .where('raw_path', '<', prefix)
    .limit(1)
    .executeTakeFirst();
  if (below) return below.raw_path;
  const above = await db
    .selectFrom('inbound_messages')
    .select('raw_path')
    .where('raw_path', '>=', end)
    .limit(1)
    .executeTakeFirst();
  if (above) return above.raw_path;
  const ranges: readonly (readonly [string, string])[] = [
    [MX_KEY, `${MX_KEY}${prefix}`],
    [`${MX_KEY}${end}`, 'mx;'],
  ];
  // One range seek each: an OR of both ranges would walk the queue's whole index.
  for (const queue of INTAKE_QUEUES) {
    for (const [from, to] of ranges) {
      const job = await db
        .selectFrom('jobs')
        .select('dedupe_key')
        .where('queue', '=', queue)
        .where('dedupe_key', '>=', from)
        .where('dedupe_key', '<', to)
        .limit(1)
        .executeTakeFirst();
      if (job?.dedupe_key) return job.dedupe_key.slice(MX_KEY.length);
    }
  }
  return undefined;
}

/** Ids of `raw_messages` rows created before `createdBefore`, after `after` in id order. */
export async function oldRawRowIds(
  db: Kysely<Database>,
  o: { readonly after: string; readonly createdBefore: string; readonly limit: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('raw_messages')
    .select('id')
    .where('id', '>', o.after)
    .where('created_at', '<', o.createdBefore)
    .orderBy('id')
    .limit(o.limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes the `ids` rows (still older than `createdBefore`); the count deleted. */
export async function deleteRawRows(
  db: Kysely<Database>,
  ids: readonly string[],
  createdBefore: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .deleteFrom('raw_messages')
    .where('id', 'in', [...ids])
    .where('created_at', '<', createdBefore)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
