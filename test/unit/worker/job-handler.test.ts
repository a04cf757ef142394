import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../../src/shared/logger';
import type { HandlerJob, JobContext } from '../../../src/worker/job-handler';
import { withConcurrencyLimit } from '../../../src/worker/job-handler';

const ctx: JobContext = { signal: new AbortController().signal, logger: createLogger({ level: 'silent' }) };

function job(n: number): HandlerJob {
  return { id: `job_${n}`, queue: 'inbound-processing', payload: {}, attempts: 1, maxAttempts: 3 };
}

void describe('withConcurrencyLimit', () => {
  it('runs at most `limit` at once, every job runs, and a failure frees its slot', async () => {
    let running = 0;
    let peak = 0;
    const ran: string[] = [];
    const releases: (() => void)[] = [];
    const limited = withConcurrencyLimit(async (j) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
      ran.push(j.id);
      if (j.id === 'job_1') throw new Error('boom');
    }, 2);

    const all = [1, 2, 3, 4, 5].map((n) =>
      limited(job(n), ctx).then(
        () => 'ok',
        () => 'failed',
      ),
    );
    // Release the handlers one at a time as they start; never more than two wait.
    while (ran.length < 5) {
      await new Promise((r) => setImmediate(r));
      assert.ok(releases.length <= 2, `${releases.length} running at once`);
      releases.shift()?.();
    }
    assert.deepEqual(await Promise.all(all), ['failed', 'ok', 'ok', 'ok', 'ok']);
    assert.equal(peak, 2);
    assert.deepEqual([...ran].sort(), ['job_1', 'job_2', 'job_3', 'job_4', 'job_5']);
  });
});
