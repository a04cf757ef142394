import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ClaimerInput } from './concurrent-claimer';

export interface ClaimerRun {
  readonly owner: string;
  readonly ids: readonly string[];
}

/**
 * Starts one claimer thread per owner (concurrent-claimer.ts), each on its own
 * connection to `url`, lets them go at once, and returns what each claimed once
 * the queue is drained.
 */
export async function runClaimers(
  url: string,
  owners: readonly string[],
  batch: number,
): Promise<ClaimerRun[]> {
  const script = path.join(__dirname, 'concurrent-claimer.js');
  const claimers = owners.map((owner) => {
    const input: ClaimerInput = { url, owner, batch };
    const worker = new Worker(script, { workerData: input });
    const ready = new Promise<void>((resolve) => worker.once('message', () => resolve()));
    const result = ready.then(
      () =>
        new Promise<string[]>((resolve, reject) => {
          worker.once('message', (m: { ids?: string[]; error?: string }) =>
            m.ids ? resolve(m.ids) : reject(new Error(m.error)),
          );
          worker.once('error', reject);
        }),
    );
    return { owner, worker, ready, result };
  });
  try {
    await Promise.all(claimers.map((c) => c.ready));
    for (const c of claimers) c.worker.postMessage('go');
    const results = await Promise.all(claimers.map((c) => c.result));
    return claimers.map((c, i) => ({ owner: c.owner, ids: results[i]! }));
  } finally {
    await Promise.all(claimers.map((c) => c.worker.terminate()));
  }
}
