import fs from 'node:fs/promises';

/**
 * fsync of a directory, so that files created or renamed in it survive a power
 * loss. Haraka fsyncs each queue file before renaming it into the queue
 * directory but never the directory itself (outbound/index.js process_delivery):
 * until the directory's own metadata is on disk, the rename can be lost.
 */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
