import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import type { RawFile } from './raw-references';
import { RAW_TABLE, rawIdFor } from './raw-references';
import type { TableDigest } from './table-digest';
import type { TablePlan } from './table-plan';
import { hashRow, keyOf, readPage } from './table-rows';

const RAW_PLAN: TablePlan = {
  name: RAW_TABLE,
  columns: [
    { name: 'id', kind: 'text' },
    { name: 'content', kind: 'bytes' },
  ],
  key: [{ name: 'id', kind: 'text' }],
};

/**
 * The file as recorded, or, when DATA_DIR moved (another mount point, `--from`
 * naming the copy), the same `inbound/…` tail under `dataDir`. Undefined: gone.
 */
async function readRaw(file: string, dataDir: string | undefined): Promise<Buffer | undefined> {
  const candidates = [file];
  const tail = file.lastIndexOf(`${path.sep}inbound${path.sep}`);
  if (dataDir !== undefined && tail >= 0) candidates.push(path.join(dataDir, file.slice(tail + 1)));
  for (const candidate of candidates) {
    try {
      return await fs.readFile(candidate);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return undefined;
}

async function presentIds(target: Db, ids: readonly string[]): Promise<Set<string>> {
  const present = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await sql<{ id: string }>`
      select id from ${sql.table(RAW_TABLE)} where id in (${sql.join(chunk)})`.execute(target);
    for (const r of rows.rows) present.add(r.id);
  }
  return present;
}

export interface RawCopyResult {
  readonly copied: number;
  readonly alreadyThere: number;
  /** Files the database names that are not on disk. */
  readonly missing: readonly RawFile[];
}

/**
 * Puts every named raw file into `raw_messages` under the id its references were
 * rewritten to. One row per statement (a message may be tens of MB);
 * `on conflict do nothing` and the skip of ids already there make a rerun cheap.
 */
export async function copyRawFiles(options: {
  readonly target: Db;
  readonly files: readonly RawFile[];
  readonly dataDir: string | undefined;
  readonly onFile?: (done: number) => void;
}): Promise<RawCopyResult> {
  const { target, files, dataDir } = options;
  const present = await presentIds(
    target,
    files.map((f) => rawIdFor(f.path)),
  );
  let copied = 0;
  let alreadyThere = 0;
  const missing: RawFile[] = [];
  for (const f of files) {
    const id = rawIdFor(f.path);
    if (present.has(id)) {
      alreadyThere++;
      continue;
    }
    const bytes = await readRaw(f.path, dataDir);
    if (bytes === undefined) {
      missing.push(f);
      continue;
    }
    const stat = await fs.stat(f.path).catch(() => undefined);
    const createdAt = (stat?.mtime ?? new Date()).toISOString();
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    await sql`
      insert into ${sql.table(RAW_TABLE)} (id, sha256, size, content, created_at)
      values (${id}, ${sha256}, ${bytes.length}, ${bytes}, ${createdAt})
      on conflict do nothing`.execute(target);
    copied++;
    options.onFile?.(copied + alreadyThere);
  }
  return { copied, alreadyThere, missing };
}

function hashEntry(hash: crypto.Hash, id: string, bytes: Buffer): void {
  hashRow(hash, [id, crypto.createHash('sha256').update(bytes).digest('hex')]);
}

/** The files' side of the raw store's check: (id, sha256 of the bytes) in id order. */
export async function rawFilesDigest(
  files: readonly RawFile[],
  dataDir: string | undefined,
): Promise<TableDigest> {
  const hash = crypto.createHash('sha256');
  let rows = 0;
  for (const f of files) {
    const bytes = await readRaw(f.path, dataDir);
    if (bytes === undefined) continue;
    hashEntry(hash, rawIdFor(f.path), bytes);
    rows++;
  }
  return { rows, sha256: hash.digest('hex') };
}

/** PostgreSQL's side: every `raw_messages` row, the same pairs in the same order. */
export async function rawRowsDigest(target: Db): Promise<TableDigest> {
  const hash = crypto.createHash('sha256');
  let rows = 0;
  let after: unknown[] | undefined;
  for (;;) {
    const page = await readPage(target, RAW_PLAN, after, 50);
    const last = page.at(-1);
    if (last === undefined) break;
    for (const row of page) hashEntry(hash, String(row.id), row.content as Buffer);
    rows += page.length;
    after = keyOf(RAW_PLAN, last);
  }
  return { rows, sha256: hash.digest('hex') };
}
