import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import type { TablePlan } from './table-plan';
import type { Row } from './table-rows';
import { keyOf, lastKey, readPage, valuesOf } from './table-rows';

/** PostgreSQL's SQLSTATE for a missing privilege. */
const INSUFFICIENT_PRIVILEGE = '42501';

function explainDenied(err: unknown): never {
  if ((err as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) throw err;
  throw new Error(
    `${(err as Error).message}: the copy turns triggers off for its transactions; connect as a superuser ` +
      'or GRANT SET ON PARAMETER session_replication_role to the role (docs/scaling.md)',
    { cause: err },
  );
}

/** A rewrite of a source row on its way to PostgreSQL (never of a key column). */
export type RowTransform = (row: Row) => Row;

/** PostgreSQL takes at most 65535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

export interface CopyTableOptions {
  readonly source: Db;
  readonly target: Db;
  readonly plan: TablePlan;
  /** Rows per batch (one target transaction each). */
  readonly batchRows: number;
  readonly transform?: RowTransform | undefined;
  readonly onBatch?: (copiedSoFar: number) => void;
}

/**
 * Copies one table in primary-key order, a keyset page at a time, each page in one
 * target transaction. Resumable: it goes on after the greatest key already on the
 * target (pages commit in key order, so every smaller key is there), and a page
 * that did commit before a kill is skipped by `on conflict do nothing`.
 *
 * Triggers are off for the copy (`session_replication_role = replica`, local to
 * each transaction): the counters they keep (email_daily_counts from emails,
 * quota_hour_buckets from quota_buckets) are copied as rows, and firing them
 * again would count every email twice. Foreign-key checks are triggers too, so a
 * page never waits for its parent's; the order parents-first is kept anyway.
 */
export async function copyTable(options: CopyTableOptions): Promise<number> {
  const { source, target, plan, transform } = options;
  const batchRows = Math.max(
    1,
    Math.min(options.batchRows, Math.floor(MAX_PARAMETERS / plan.columns.length)),
  );
  const columns = sql.join(plan.columns.map((c) => sql.id(c.name)));
  let after = await lastKey(target, plan);
  let copied = 0;
  for (;;) {
    const page = await readPage(source, plan, after, batchRows);
    const last = page.at(-1);
    if (last === undefined) return copied;
    const rows = page.map((row) => sql`(${sql.join(valuesOf(plan, transform ? transform(row) : row))})`);
    await target.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx).catch(explainDenied);
      await sql`
        insert into ${sql.table(plan.name)} (${columns}) values ${sql.join(rows)}
        on conflict do nothing`.execute(trx);
    });
    after = keyOf(plan, last);
    copied += page.length;
    options.onBatch?.(copied);
  }
}
