import { sql } from 'kysely';
import type { Db } from '../../db/connect';

/**
 * How a column's values are compared and written. SQLite types by affinity (any
 * value in any column); PostgreSQL by declaration: values are brought to the
 * declared kind on both sides before they are hashed or inserted.
 */
export type ColumnKind = 'integer' | 'real' | 'text' | 'bytes';

export interface ColumnPlan {
  readonly name: string;
  readonly kind: ColumnKind;
}

export interface TablePlan {
  readonly name: string;
  readonly columns: readonly ColumnPlan[];
  /** Primary-key columns in key order: the keyset of every page. */
  readonly key: readonly ColumnPlan[];
}

/**
 * Rows per page or batch: a row with a binary column (an attachment, captured mail,
 * a message source) may be up to EMAIL_MAX_SIZE_BYTES (10 MiB by default), and a
 * page is held in memory whole, so such tables go 50 times fewer rows at a time.
 */
export function rowsPerPage(plan: TablePlan, rows: number): number {
  return plan.columns.some((c) => c.kind === 'bytes') ? Math.max(1, Math.floor(rows / 50)) : rows;
}

/** kysely's migration bookkeeping: the target keeps its own (it ran the migrations). */
export const BOOKKEEPING_TABLES: ReadonlySet<string> = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * SQLite's affinity rules (https://www.sqlite.org/datatype3.html §3.1), in their
 * order: INT, then CHAR/CLOB/TEXT, then BLOB or no type, then REAL/FLOA/DOUB.
 * NUMERIC affinity (anything else) has no column in our schema: refused.
 */
export function sqliteKind(declared: string): ColumnKind | undefined {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('BLOB') || t === '') return 'bytes';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real';
  return undefined;
}

/** The PostgreSQL types a column of each kind may have on the target. */
const POSTGRES_TYPES: Record<ColumnKind, readonly string[]> = {
  integer: ['integer', 'bigint', 'smallint'],
  real: ['double precision', 'real', 'numeric'],
  text: ['text', 'character varying', 'character'],
  bytes: ['bytea'],
};

interface SqliteColumn {
  name: string;
  type: string;
  pk: number;
}

interface SqliteForeignKey {
  table: string;
}

/** Every table of the SQLite database, as the copy and the checks need it. */
export async function readSqliteTables(db: Db): Promise<TablePlan[]> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master
    where type = 'table' and name not like 'sqlite\\_%' escape '\\'
    order by name`.execute(db);
  const plans: TablePlan[] = [];
  for (const { name } of tables.rows) {
    const cols = (await sql<SqliteColumn>`select name, type, pk from pragma_table_info(${name})`.execute(db))
      .rows;
    const columns = cols.map((c) => {
      const kind = sqliteKind(c.type);
      if (kind === undefined)
        throw new Error(`${name}.${c.name}: declared type "${c.type}" has no PostgreSQL counterpart here`);
      return { name: c.name, kind };
    });
    const key = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => columns.find((col) => col.name === c.name) as ColumnPlan);
    plans.push({ name, columns, key });
  }
  return plans;
}

/** Parent tables first (a row's foreign keys point at rows already copied); ties by name. */
export async function foreignKeyOrder(db: Db, tables: readonly TablePlan[]): Promise<TablePlan[]> {
  const parents = new Map<string, Set<string>>();
  for (const t of tables) {
    const fks = (
      await sql<SqliteForeignKey>`select "table" from pragma_foreign_key_list(${t.name})`.execute(db)
    ).rows;
    parents.set(t.name, new Set(fks.map((f) => f.table).filter((p) => p !== t.name)));
  }
  const ordered: TablePlan[] = [];
  const placed = new Set<string>();
  const remaining = [...tables].sort((a, b) => (a.name < b.name ? -1 : 1));
  while (remaining.length > 0) {
    const i = remaining.findIndex((t) =>
      [...(parents.get(t.name) ?? [])].every((p) => placed.has(p) || !parents.has(p)),
    );
    // A cycle: take the first; the copy runs with triggers (foreign keys included) off.
    const [next] = remaining.splice(i === -1 ? 0 : i, 1);
    if (next === undefined) break;
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

interface PostgresColumn {
  table_name: string;
  column_name: string;
  data_type: string;
}

/**
 * Refuses a copy that could not be complete: a source table without a primary key
 * (no keyset, no `on conflict`), a table or column on one side only, or a column
 * whose PostgreSQL type does not hold the SQLite kind. Each problem names the
 * table; a table added by a later migration is thereby either copied or named here.
 */
export async function checkTargetSchema(
  target: Db,
  tables: readonly TablePlan[],
  ignoredTargetTables: ReadonlySet<string>,
): Promise<string[]> {
  const rows = (
    await sql<PostgresColumn>`
      select c.table_name, c.column_name, c.data_type
      from information_schema.columns c
      join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(target)
  ).rows;
  const targetTables = new Map<string, Map<string, string>>();
  for (const r of rows) {
    const cols = targetTables.get(r.table_name) ?? new Map<string, string>();
    cols.set(r.column_name, r.data_type);
    targetTables.set(r.table_name, cols);
  }
  const problems: string[] = [];
  for (const t of tables) {
    if (t.key.length === 0) problems.push(`${t.name}: no primary key in the SQLite database`);
    const cols = targetTables.get(t.name);
    if (cols === undefined) {
      problems.push(`${t.name}: not in the PostgreSQL database (created outside the migrations?)`);
      continue;
    }
    for (const c of t.columns) {
      const type = cols.get(c.name);
      if (type === undefined) problems.push(`${t.name}.${c.name}: no such column on PostgreSQL`);
      else if (!POSTGRES_TYPES[c.kind].includes(type))
        problems.push(`${t.name}.${c.name}: ${c.kind} in SQLite, ${type} on PostgreSQL`);
    }
    for (const name of cols.keys())
      if (!t.columns.some((c) => c.name === name))
        problems.push(`${t.name}.${name}: on PostgreSQL only (the databases are at different migrations?)`);
  }
  const known = new Set(tables.map((t) => t.name));
  for (const name of targetTables.keys())
    if (!known.has(name) && !BOOKKEEPING_TABLES.has(name) && !ignoredTargetTables.has(name))
      problems.push(`${name}: on PostgreSQL only (the databases are at different migrations?)`);
  return problems;
}
