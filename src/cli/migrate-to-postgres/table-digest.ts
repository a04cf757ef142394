import crypto from 'node:crypto';
import type { Db } from '../../db/connect';
import type { RowTransform } from './copy-table';
import type { TablePlan } from './table-plan';
import { rowsPerPage } from './table-plan';
import { hashRow, keyOf, readPage, valuesOf } from './table-rows';

export interface TableDigest {
  readonly rows: number;
  /** Hex SHA-256 over every row in key order, values normalised (table-rows.ts). */
  readonly sha256: string;
}

const PAGE_ROWS = 1000;

/**
 * Row count and checksum of one table, computed here in node by the same code on
 * either database: what the verification compares. `transform` is the copy's
 * rewrite, applied to the source side so that both describe the rows as they
 * should be on PostgreSQL.
 */
export async function tableDigest(db: Db, plan: TablePlan, transform?: RowTransform): Promise<TableDigest> {
  const hash = crypto.createHash('sha256');
  let rows = 0;
  let after: unknown[] | undefined;
  for (;;) {
    const page = await readPage(db, plan, after, rowsPerPage(plan, PAGE_ROWS));
    const last = page.at(-1);
    if (last === undefined) break;
    for (const row of page) hashRow(hash, valuesOf(plan, transform ? transform(row) : row));
    rows += page.length;
    after = keyOf(plan, last);
  }
  return { rows, sha256: hash.digest('hex') };
}
