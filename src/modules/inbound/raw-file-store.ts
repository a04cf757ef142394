import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { syncDirectory, syncDirectoryShared } from '../../shared/sync-directory';
import type { RawStore } from './raw-store';

/** A raw message as stored: where, and what it holds. */
export interface StoredRaw {
  /** Absolute path under `$DATA_DIR/inbound/<yyyy-mm-dd>/`. */
  readonly path: string;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly size: number;
}

/**
 * Day directories known to exist (and made durable) in this process: one mkdir per
 * day instead of one per message. A directory removed behind our back is found by
 * the ENOENT of the next open, which forgets it and creates it again.
 */
const knownDirs = new Set<string>();

/** Creates `dir` and fsyncs its parent, so a new day's directory survives a power loss too. */
async function ensureDir(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await ensureDir(path.dirname(dir));
    await ensureDir(dir);
    return;
  }
  await syncDirectory(path.dirname(dir));
}

/**
 * Writes one raw message durably: `$DATA_DIR/inbound/<yyyy-mm-dd>/<random>.eml`,
 * through a temporary name, the file fsynced, renamed, and the directory fsynced.
 * When this resolves the message survives a crash or power loss; a crash before
 * leaves at most a `.tmp` file, never a partial `.eml`. Every call writes a new
 * file: each job that references a file owns it (docs/inbound.md, "Raw messages").
 */
export async function storeRawMessage(dataDir: string, bytes: Buffer | Readable): Promise<StoredRaw> {
  const day = new Date().toISOString().slice(0, 10);
  const dir = path.join(dataDir, 'inbound', day);
  if (!knownDirs.has(dir)) {
    await ensureDir(dir);
    knownDirs.add(dir);
  }
  const name = crypto.randomBytes(16).toString('hex');
  const final = path.join(dir, `${name}.eml`);
  const tmp = path.join(dir, `${name}.tmp`);
  const hash = crypto.createHash('sha256');
  let size = 0;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(tmp, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    knownDirs.delete(dir);
    await ensureDir(dir);
    knownDirs.add(dir);
    handle = await fs.open(tmp, 'wx', 0o600);
  }
  try {
    const chunks: Iterable<Buffer> | AsyncIterable<Buffer | string> = Buffer.isBuffer(bytes)
      ? [bytes]
      : bytes;
    for await (const chunk of chunks) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      hash.update(buf);
      size += buf.length;
      await handle.write(buf);
    }
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  await fs.rename(tmp, final);
  await syncDirectoryShared(dir);
  return { path: final, sha256: hash.digest('hex'), size };
}

export async function readRawMessage(file: string): Promise<Buffer> {
  return fs.readFile(file);
}

/** Removes a raw message; already gone is fine (a repeated delete, a replayed job). */
export async function deleteRawMessage(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

/**
 * The file store (SQLite, one host): `put` is {@link storeRawMessage}, durable before
 * the job naming the path commits; a crash between the two leaves an unreferenced file,
 * which retention's orphan sweep removes (src/modules/retention/orphan-raw-files.ts).
 */
export function fileRawStore(dataDir: string): RawStore {
  return {
    kind: 'file',
    async put(bytes) {
      const stored = await storeRawMessage(dataDir, bytes);
      return { ref: stored.path, sha256: stored.sha256, size: stored.size };
    },
    async get(ref) {
      try {
        return await readRawMessage(ref);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    delete: deleteRawMessage,
    async discard(staged) {
      await Promise.all(staged.map((s) => deleteRawMessage(s.ref).catch(() => undefined)));
    },
  };
}
