import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { migrate } from '../../db/connect';
import { copyRawFiles } from './copy-raw-files';
import { copyTable } from './copy-table';
import type { RawFile } from './raw-references';
import { RAW_REF_TRANSFORMS, RAW_TABLE, referencedRawFiles } from './raw-references';
import type { TablePlan } from './table-plan';
import {
  BOOKKEEPING_TABLES,
  checkTargetSchema,
  foreignKeyOrder,
  readSqliteTables,
  rowsPerPage,
} from './table-plan';
import type { TableCheck } from './verify-copy';
import { verifyCopy } from './verify-copy';

export type Log = (line: string) => void;

export interface MigrationPlan {
  /** The tables copied row by row, parents first. */
  readonly tables: readonly TablePlan[];
  /** Whether raw files go into `raw_messages` (the database raw store exists). */
  readonly rawStore: boolean;
}

/**
 * What will be copied, or why it cannot be: every SQLite table but kysely's
 * bookkeeping, checked against the PostgreSQL schema (src/cli/migrate-to-postgres/table-plan.ts).
 */
export async function planMigration(source: Db, target: Db): Promise<MigrationPlan> {
  const all = (await readSqliteTables(source)).filter((t) => !BOOKKEEPING_TABLES.has(t.name));
  const rawStore = all.some((t) => t.name === RAW_TABLE);
  const problems = await checkTargetSchema(target, all, new Set());
  if (rawStore) {
    const { n } = (
      await sql<{ n: number | string }>`select count(*) as n from ${sql.table(RAW_TABLE)}`.execute(source)
    ).rows[0] ?? { n: 0 };
    // On SQLite raw messages are files; rows there would have no file to come from.
    if (Number(n) > 0) problems.push(`${RAW_TABLE}: holds ${n} rows in the SQLite database, expected none`);
  }
  if (problems.length > 0)
    throw new Error(`cannot copy every table; nothing was copied:\n  ${problems.join('\n  ')}`);
  const tables = (await foreignKeyOrder(source, all)).filter((t) => t.name !== RAW_TABLE);
  return { tables, rawStore };
}

async function countRows(db: Db, table: string): Promise<number> {
  const row = (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db))
    .rows[0];
  return Number(row?.n ?? 0);
}

export interface MigrateOptions {
  readonly source: Db;
  readonly target: Db;
  /** DATA_DIR of the source, where raw files are looked for when their recorded path is gone. */
  readonly dataDir: string | undefined;
  readonly batchRows: number;
  readonly log: Log;
}

export interface MigrateResult {
  readonly checks: readonly TableCheck[];
  readonly missingRaw: readonly RawFile[];
}

/**
 * Copies the SQLite database into PostgreSQL and verifies the copy. Both are
 * migrated to this build's schema first (the target's own migration bookkeeping
 * is written by that). Safe to run again after any interruption: it resumes.
 */
export async function migrateToPostgres(options: MigrateOptions): Promise<MigrateResult> {
  const { source, target, log } = options;
  for (const [side, db] of [
    ['SQLite', source],
    ['PostgreSQL', target],
  ] as const) {
    const applied = await migrate(db);
    if (applied.length > 0) log(`${side}: applied migrations ${applied.join(', ')}`);
  }
  const plan = await planMigration(source, target);
  for (const table of plan.tables) {
    const total = await countRows(source, table.name);
    const step = Math.max(1, Math.ceil(total / 10));
    let reported = 0;
    const copied = await copyTable({
      source,
      target,
      plan: table,
      batchRows: rowsPerPage(table, options.batchRows),
      transform: RAW_REF_TRANSFORMS.get(table.name),
      onBatch: (n) => {
        if (n - reported < step) return;
        reported = n;
        log(`${table.name}: ${n} of ${total} rows copied in this run`);
      },
    });
    log(`${table.name}: done (${total} rows; ${copied} copied in this run)`);
  }
  let missingRaw: RawFile[] = [];
  let rawFiles: RawFile[] | undefined;
  if (plan.rawStore) {
    rawFiles = await referencedRawFiles(source);
    const raw = await copyRawFiles({ target, files: rawFiles, dataDir: options.dataDir });
    missingRaw = [...raw.missing];
    log(
      `raw store: ${raw.copied} files copied, ${raw.alreadyThere} already there, ${raw.missing.length} missing`,
    );
  } else {
    log(`raw store: this build has no ${RAW_TABLE} table: raw inbound files are not copied`);
  }
  log('verifying: row counts and checksums of every table on both sides');
  const checks = await verifyCopy({
    source,
    target,
    tables: plan.tables,
    rawFiles,
    dataDir: options.dataDir,
  });
  return { checks, missingRaw };
}

/** `--verify-only`: the checks alone, reading both databases, writing neither. */
export async function verifyOnly(options: Omit<MigrateOptions, 'batchRows' | 'log'>): Promise<TableCheck[]> {
  const plan = await planMigration(options.source, options.target);
  const rawFiles = plan.rawStore ? await referencedRawFiles(options.source) : undefined;
  return verifyCopy({ ...options, tables: plan.tables, rawFiles });
}
