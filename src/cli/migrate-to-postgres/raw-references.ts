import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { DB_RAW_PREFIX } from '../../modules/inbound/raw-store';
import type { RowTransform } from './copy-table';
import type { Row } from './table-rows';

/**
 * On SQLite a raw inbound message (or bounce report) is a file and is named by its
 * absolute path: `inbound_messages.raw_path`, the intake job's `payload.rawPath`
 * and its dedupe key `mx:<path>`. On PostgreSQL the bytes are a `raw_messages`
 * row named `db:<id>` (src/modules/inbound/raw-store.ts). The copy rewrites every
 * path to the reference of the row made from its file; the id is derived from the
 * path, so a resumed run makes the same one.
 */
export const RAW_TABLE = 'raw_messages';
const DB_REF = DB_RAW_PREFIX;
const MX_KEY = 'mx:';

export function rawIdFor(file: string): string {
  return `raw_${crypto.createHash('sha256').update(file).digest('hex').slice(0, 26)}`;
}

function isFileRef(ref: unknown): ref is string {
  return typeof ref === 'string' && !ref.startsWith(DB_REF) && path.isAbsolute(ref);
}

function refFor(file: string): string {
  return `${DB_REF}${rawIdFor(file)}`;
}

/** Every `rawPath` string in a JSON value rewritten; undefined when none was a file. */
function rewritePayload(value: unknown): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = (value as unknown[]).map((v) => {
      const r = rewritePayload(v);
      if (r !== undefined) changed = true;
      return r ?? v;
    });
    return changed ? out : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'rawPath' && isFileRef(v)) {
      out[k] = refFor(v);
      changed = true;
      continue;
    }
    const r = rewritePayload(v);
    if (r !== undefined) changed = true;
    out[k] = r ?? v;
  }
  return changed ? out : undefined;
}

function rewriteJob(row: Row): Row {
  let { payload, dedupe_key } = row;
  if (typeof payload === 'string' && payload.includes('"rawPath"')) {
    try {
      const rewritten = rewritePayload(JSON.parse(payload));
      if (rewritten !== undefined) payload = JSON.stringify(rewritten);
    } catch {
      // A payload that does not parse names no file: copied as it is.
    }
  }
  if (typeof dedupe_key === 'string' && dedupe_key.startsWith(MX_KEY)) {
    const ref = dedupe_key.slice(MX_KEY.length);
    if (isFileRef(ref)) dedupe_key = `${MX_KEY}${refFor(ref)}`;
  }
  return payload === row.payload && dedupe_key === row.dedupe_key ? row : { ...row, payload, dedupe_key };
}

/** The copy's rewrites, by table (key columns untouched: the keyset stays valid). */
export const RAW_REF_TRANSFORMS: ReadonlyMap<string, RowTransform> = new Map<string, RowTransform>([
  ['inbound_messages', (row) => (isFileRef(row.raw_path) ? { ...row, raw_path: refFor(row.raw_path) } : row)],
  ['jobs', rewriteJob],
]);

export interface RawFile {
  readonly path: string;
  /** Named by a message row or a job still to run: its absence is a loss, not a leftover. */
  readonly needed: boolean;
}

function collectPaths(value: unknown, into: string[]): void {
  if (Array.isArray(value)) for (const v of value) collectPaths(v, into);
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) {
      if (k === 'rawPath' && isFileRef(v)) into.push(v);
      else collectPaths(v, into);
    }
}

/** Every raw file the SQLite database names, in the order of their row ids. */
export async function referencedRawFiles(source: Db): Promise<RawFile[]> {
  const files = new Map<string, boolean>();
  const messages = await sql<{ raw_path: string }>`select raw_path from inbound_messages`.execute(source);
  for (const { raw_path } of messages.rows) if (isFileRef(raw_path)) files.set(raw_path, true);
  const jobs = await sql<{ payload: string; state: string }>`
    select payload, state from jobs where payload like ${'%"rawPath"%'}`.execute(source);
  for (const { payload, state } of jobs.rows) {
    const paths: string[] = [];
    try {
      collectPaths(JSON.parse(payload), paths);
    } catch {
      continue;
    }
    // A finished job's file is deleted by design (docs/inbound.md, "Raw files").
    const live = state === 'queued' || state === 'running';
    for (const p of paths) files.set(p, (files.get(p) ?? false) || live);
  }
  return [...files]
    .map(([p, needed]) => ({ path: p, needed, id: rawIdFor(p) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ path: p, needed }) => ({ path: p, needed }));
}
