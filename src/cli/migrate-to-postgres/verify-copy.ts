import type { Db } from '../../db/connect';
import type { RawFile } from './raw-references';
import { RAW_REF_TRANSFORMS } from './raw-references';
import { rawFilesDigest, rawRowsDigest } from './copy-raw-files';
import type { TableDigest } from './table-digest';
import { tableDigest } from './table-digest';
import type { TablePlan } from './table-plan';

export interface TableCheck {
  readonly table: string;
  readonly sqlite: TableDigest;
  readonly postgres: TableDigest;
  readonly equal: boolean;
}

/** The raw store's line in the report: the files on one side, `raw_messages` on the other. */
export const RAW_STORE_LINE = 'raw store (files → raw_messages)';

/**
 * Row count and checksum of every copied table on both sides (the source through
 * the copy's rewrites), and of the raw store when there is one.
 */
export async function verifyCopy(options: {
  readonly source: Db;
  readonly target: Db;
  readonly tables: readonly TablePlan[];
  readonly rawFiles?: readonly RawFile[] | undefined;
  readonly dataDir: string | undefined;
}): Promise<TableCheck[]> {
  const checks: TableCheck[] = [];
  const push = (table: string, sqlite: TableDigest, postgres: TableDigest): void => {
    checks.push({
      table,
      sqlite,
      postgres,
      equal: sqlite.rows === postgres.rows && sqlite.sha256 === postgres.sha256,
    });
  };
  for (const plan of options.tables) {
    const [sqlite, postgres] = await Promise.all([
      tableDigest(options.source, plan, RAW_REF_TRANSFORMS.get(plan.name)),
      tableDigest(options.target, plan),
    ]);
    push(plan.name, sqlite, postgres);
  }
  if (options.rawFiles !== undefined) {
    const [files, rows] = await Promise.all([
      rawFilesDigest(options.rawFiles, options.dataDir),
      rawRowsDigest(options.target),
    ]);
    push(RAW_STORE_LINE, files, rows);
  }
  return checks;
}

/** The checks as a fixed-width table, one line per table, mismatches marked. */
export function formatChecks(checks: readonly TableCheck[]): string {
  const width = Math.max(5, ...checks.map((c) => c.table.length));
  const head = `${'table'.padEnd(width)}  ${'sqlite rows'.padStart(11)}  ${'pg rows'.padStart(11)}  ${'checksum'.padEnd(16)}  result`;
  const lines = checks.map((c) => {
    const sum = c.sqlite.sha256 === c.postgres.sha256 ? c.sqlite.sha256.slice(0, 16) : 'differs';
    const detail = c.equal
      ? 'ok'
      : `MISMATCH (sqlite ${c.sqlite.sha256.slice(0, 12)}…, pg ${c.postgres.sha256.slice(0, 12)}…)`;
    return `${c.table.padEnd(width)}  ${String(c.sqlite.rows).padStart(11)}  ${String(c.postgres.rows).padStart(11)}  ${sum.padEnd(16)}  ${detail}`;
  });
  return `${[head, ...lines].join('\n')}\n`;
}
