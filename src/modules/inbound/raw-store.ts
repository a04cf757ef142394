import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** A raw message as stored: where, and what it holds. */
export interface StoredRaw {
  /** Absolute path under `$DATA_DIR/inbound/<yyyy-mm-dd>/`. */
  readonly path: string;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly size: number;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface DirSyncState {
  /** The fsync in flight. */
  running: Promise<void> | undefined;
  /** The one that starts after it, shared by everyone who asked meanwhile. */
  next: Promise<void> | undefined;
}

const dirSyncs = new Map<string, DirSyncState>();

/**
 * fsync of `dir` covering every entry created in it before the call: concurrent
 * callers share fsyncs. One in flight may have started before the caller's
 * rename, so a caller arriving then waits for the next one, which starts when
 * the running one ends and serves every caller that arrived meanwhile. Under
 * load, one directory fsync per batch of messages instead of one per message.
 */
export function syncDirShared(dir: string): Promise<void> {
  let state = dirSyncs.get(dir);
  if (state === undefined) {
    state = { running: undefined, next: undefined };
    dirSyncs.set(dir, state);
  }
  const s = state;
  const start = (): Promise<void> => {
    const run = syncDir(dir).finally(() => {
      if (s.running === run) s.running = undefined;
      if (s.running === undefined && s.next === undefined) dirSyncs.delete(dir);
    });
    s.running = run;
    return run;
  };
  if (s.running === undefined) return start();
  s.next ??= s.running
    .catch(() => undefined)
    .then(() => {
      s.next = undefined;
      return start();
    });
  return s.next;
}

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
  await syncDir(path.dirname(dir));
}

/**
 * Writes one raw message durably: `$DATA_DIR/inbound/<yyyy-mm-dd>/<random>.eml`,
 * through a temporary name, the file fsynced, renamed, and the directory fsynced.
 * When this resolves the message survives a crash or power loss; a crash before
 * leaves at most a `.tmp` file, never a partial `.eml`. Every call writes a new
 * file: each job that references a file owns it (docs/inbound.md, "Raw files").
 */
export async function storeRawMessage(dataDir: string, bytes: Buffer | Readable): Promise<StoredRaw> {
  const day = new Date().toISOString().slice(0, 10);
  const dir = path.join(dataDir, 'inbound', day);
  await ensureDir(dir);
  const name = crypto.randomBytes(16).toString('hex');
  const final = path.join(dir, `${name}.eml`);
  const tmp = path.join(dir, `${name}.tmp`);
  const hash = crypto.createHash('sha256');
  let size = 0;
  const handle = await fs.open(tmp, 'wx', 0o600);
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
  await syncDirShared(dir);
  return { path: final, sha256: hash.digest('hex'), size };
}

export async function readRawMessage(file: string): Promise<Buffer> {
  return fs.readFile(file);
}

/** Removes a raw message; already gone is fine (a repeated delete, a replayed job). */
export async function deleteRawMessage(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}
