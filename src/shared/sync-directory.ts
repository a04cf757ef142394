import fs from 'node:fs/promises';

/**
 * fsync of a directory, so that files created or renamed in it survive a power
 * loss. Used by the MTA's queue directory and the inbound raw store. Haraka fsyncs each queue file before renaming it into the queue
 * directory but never the directory itself (outbound/index.js process_delivery):
 * until the directory's own metadata is on disk, the rename can be lost.
 */
export function syncDirectory(dir: string): Promise<void> {
  return fsyncPath(dir);
}

/** fsync of a file or a directory, opened read-only (what Linux allows for both). */
export async function fsyncPath(p: string): Promise<void> {
  const handle = await fs.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * fsyncs of `dir`, coalesced: a caller joins a sync that starts after its call, so
 * the renames it made before calling are covered, and the callers that arrive
 * while one sync runs all share the next one (one fsync for many messages).
 */
export function coalescedDirectorySync(dir: string, sync = syncDirectory): () => Promise<void> {
  let running: Promise<void> | undefined;
  let following: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const p = sync(dir).finally(() => {
      if (running === p) running = undefined;
    });
    running = p;
    return p;
  };
  return () => {
    if (running === undefined) return start();
    // The sync in flight may have started before this caller's rename.
    following ??= running
      .catch(() => undefined)
      .then(() => {
        following = undefined;
        return start();
      });
    return following;
  };
}

const sharedSyncs = new Map<string, () => Promise<void>>();

/**
 * {@link coalescedDirectorySync} of `dir`, one per directory for the whole
 * process: every caller that created or renamed entries in `dir` before calling
 * is covered by the fsync it awaits, and concurrent callers share fsyncs (one per
 * batch of messages under load). One small entry per directory ever synced.
 */
export function syncDirectoryShared(dir: string): Promise<void> {
  let sync = sharedSyncs.get(dir);
  if (sync === undefined) {
    sync = coalescedDirectorySync(dir);
    sharedSyncs.set(dir, sync);
  }
  return sync();
}
