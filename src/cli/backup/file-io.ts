import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fsyncPath } from '../../shared/sync-directory';

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function isErrno(err: unknown, ...codes: string[]): boolean {
  return codes.includes((err as NodeJS.ErrnoException | null)?.code ?? '');
}

/** Regular files under `root` (relative, `/`-separated), skipping what `keep` refuses. Tolerates races. */
export async function listFiles(root: string, keep: (rel: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relDir: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(root, relDir), { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return;
      throw err;
    }
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (!keep(rel)) continue;
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  await walk('');
  return out.sort();
}

/** Copies one file, fsyncs it, hashes the copy. `null` when the source vanished meanwhile. */
export async function copyOne(
  from: string,
  to: string,
): Promise<{ bytes: number; sha256: string; mode: number } | null> {
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(from);
    await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await fsp.copyFile(from, to);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw err;
  }
  const mode = stat.mode & 0o777;
  await fsp.chmod(to, mode);
  await fsyncPath(to);
  const copied = await fsp.stat(to);
  return { bytes: copied.size, sha256: await sha256File(to), mode };
}
