import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalescedDirectorySync } from '../../../src/shared/sync-directory';

/** A stand-in for the fsync whose completion the test controls, recording when each one started. */
function controlledSync() {
  const started: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const sync = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, sync };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('coalescedDirectorySync', () => {
  it('callers arriving during a sync share the next one, which starts only after it', async () => {
    const c = controlledSync();
    const syncDir = coalescedDirectorySync('/queue', c.sync);
    const settled: string[] = [];
    const first = syncDir().then(() => settled.push('first'));
    const second = syncDir().then(() => settled.push('second'));
    const third = syncDir().then(() => settled.push('third'));
    await tick();
    assert.equal(c.started.length, 1, 'the later callers wait instead of starting their own');
    c.started[0]!.resolve();
    await first;
    await tick();
    assert.deepEqual(settled, ['first'], 'a sync that began before their call does not cover them');
    assert.equal(c.started.length, 2);
    c.started[1]!.resolve();
    await Promise.all([second, third]);
    assert.deepEqual(settled, ['first', 'second', 'third']);
  });

  it('a failed sync fails its callers only; the next callers get a fresh sync', async () => {
    const c = controlledSync();
    const syncDir = coalescedDirectorySync('/queue', c.sync);
    const first = syncDir();
    const second = syncDir();
    c.started[0]!.reject(new Error('EIO'));
    await assert.rejects(first, /EIO/);
    await tick();
    c.started[1]!.resolve();
    await second;
    const third = syncDir();
    await tick();
    assert.equal(c.started.length, 3);
    c.started[2]!.resolve();
    await third;
  });
});
