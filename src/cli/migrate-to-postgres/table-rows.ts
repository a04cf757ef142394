import type { Hash } from 'node:crypto';
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { dialectOf } from '../../db/connect';
import type { ColumnKind, ColumnPlan, TablePlan } from './table-plan';

export type Row = Record<string, unknown>;
export type SqlValue = null | number | string | Buffer;

/**
 * The order of a key column, the same on both sides: SQLite compares text with
 * BINARY (the bytes of UTF-8, i.e. code point order); PostgreSQL with the
 * column's collation, which follows the server's locale unless said otherwise.
 * `collate "C"` is byte order there too, so a keyset page and a checksum walk the
 * rows in the same order on both.
 */
function keyExpr(db: Db, c: ColumnPlan): RawBuilder<unknown> {
  return c.kind === 'text' && dialectOf(db) === 'postgres'
    ? sql`${sql.id(c.name)} collate "C"`
    : sql`${sql.id(c.name)}`;
}

function orderBy(db: Db, plan: TablePlan, direction: 'asc' | 'desc'): RawBuilder<unknown> {
  const dir = direction === 'asc' ? sql`asc` : sql`desc`;
  return sql.join(plan.key.map((c) => sql`${keyExpr(db, c)} ${dir}`));
}

/** The next `limit` rows after `after` (a key, in key-column order), in key order. */
export async function readPage(
  db: Db,
  plan: TablePlan,
  after: readonly unknown[] | undefined,
  limit: number,
): Promise<Row[]> {
  const cols = sql.join(plan.columns.map((c) => sql.id(c.name)));
  const where =
    after === undefined
      ? sql``
      : sql`where (${sql.join(plan.key.map((c) => keyExpr(db, c)))}) > (${sql.join([...after])})`;
  const result = await sql<Row>`
    select ${cols} from ${sql.table(plan.name)} ${where}
    order by ${orderBy(db, plan, 'asc')} limit ${limit}`.execute(db);
  return result.rows;
}

/** The greatest key present, or undefined for an empty table: where a resumed copy goes on. */
export async function lastKey(db: Db, plan: TablePlan): Promise<unknown[] | undefined> {
  const cols = sql.join(plan.key.map((c) => sql.id(c.name)));
  const result = await sql<Row>`
    select ${cols} from ${sql.table(plan.name)} order by ${orderBy(db, plan, 'desc')} limit 1`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : keyOf(plan, row);
}

export function keyOf(plan: TablePlan, row: Row): unknown[] {
  return plan.key.map((c) => normalise(c.kind, row[c.name]));
}

/**
 * A value as the column's kind holds it, whichever side it was read from: the
 * SQLite driver gives numbers, strings and Buffers as stored (a text column may
 * hold a number); pg gives int8 as a string unless parsed, bytea as a Buffer.
 */
export function normalise(kind: ColumnKind, v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'bytes':
      if (Buffer.isBuffer(v)) return v;
      if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      return Buffer.from(scalarText(v), 'utf8');
    case 'text':
      return Buffer.isBuffer(v) ? v.toString('utf8') : scalarText(v);
    case 'integer': {
      const n = typeof v === 'bigint' || typeof v === 'string' ? Number(v) : v;
      // Beyond 2^53 a number is not exact: written as text, PostgreSQL parses it exactly.
      if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
      return scalarText(v);
    }
    case 'real':
      return typeof v === 'number' ? v : Number(scalarText(v));
  }
}

/** A driver's scalar as text; neither driver returns other objects for our column types. */
function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  throw new Error(`unexpected ${typeof v} value from the database`);
}

/** The row's values in column order, each normalised to its column's kind. */
export function valuesOf(plan: TablePlan, row: Row): SqlValue[] {
  return plan.columns.map((c) => normalise(c.kind, row[c.name]));
}

/**
 * Feeds one row into a checksum: each value tagged by type and length-prefixed,
 * so no two different rows encode alike (a NULL is not '', 1 is not '1' in a
 * text column only because the kind, not the driver, decides the tag).
 */
export function hashRow(hash: Hash, values: readonly SqlValue[]): void {
  for (const v of values) {
    if (v === null) {
      hash.update('N;');
      continue;
    }
    const bytes = Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'utf8');
    const tag = Buffer.isBuffer(v) ? 'B' : typeof v === 'number' ? 'I' : 'T';
    hash.update(`${tag}${bytes.length}:`);
    hash.update(bytes);
  }
  hash.update('\n');
}
