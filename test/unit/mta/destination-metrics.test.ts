import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  DestinationMetrics,
  gaugeValues,
  readSnapshot,
  SNAPSHOT_FILE,
} from '../../../src/mta/destination-metrics';
import { PRIVATE_FILE_MODE } from '../../../src/shared/private-files';

describe('destination metrics snapshot', () => {
  const hour = 3_600_000;

  it('carries the four counted numbers per destination, written off the event loop', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-dest-metrics-'));
    try {
      assert.equal(await readSnapshot(dir), undefined, 'no mta yet');
      const now = 10 * hour;
      const metrics = new DestinationMetrics(
        () => dir,
        () => ({
          inFlight: new Map([['google.com', 2]]),
          backedOffUntil: new Map([['yahoodns.net', now + 90_000]]),
        }),
        (err) => assert.fail(String(err)),
      );
      metrics.deferred('yahoodns.net', now - 2 * hour);
      for (let i = 0; i < 500; i++) metrics.deferred('yahoodns.net', now - 1_000 - i);
      metrics.tick(now);
      // Handed to fs.promises: nothing written synchronously on Haraka's loop.
      assert.equal(fs.existsSync(path.join(dir, SNAPSHOT_FILE)), false);
      await metrics.flushed();
      const file = path.join(dir, SNAPSHOT_FILE);
      assert.equal(fs.statSync(file).mode & 0o777, PRIVATE_FILE_MODE);
      assert.equal(fs.existsSync(`${file}.tmp`), false, 'renamed into place');
      // Numbers only: 500 deferrals are one count, not 500 timestamps.
      assert.ok(fs.statSync(file).size < 400, `${fs.statSync(file).size} bytes`);
      const snapshot = await readSnapshot(dir);
      assert.ok(snapshot);
      assert.deepEqual(
        gaugeValues(snapshot, now + 30_000).sort((a, b) => a.destination.localeCompare(b.destination)),
        [
          {
            destination: 'google.com',
            inFlight: 2,
            backedOff: 0,
            backoffRemainingSeconds: 0,
            deferredLastHour: 0,
          },
          {
            destination: 'yahoodns.net',
            inFlight: 0,
            backedOff: 1,
            // 90 s at the snapshot, run down by its age at the scrape.
            backoffRemainingSeconds: 60,
            deferredLastHour: 500,
          },
        ],
      );
      assert.equal(gaugeValues(snapshot, now + 95_000)[1]?.backedOff, 0);

      // A back-off running down is no change: no rewrite; a new deferral is.
      const written = fs.statSync(file).mtimeMs;
      fs.rmSync(file);
      metrics.tick(now + 5_000);
      await metrics.flushed();
      assert.equal(fs.existsSync(file), false, 'nothing changed, nothing written');
      metrics.deferred('google.com', now + 6_000);
      metrics.tick(now + 10_000);
      await metrics.flushed();
      assert.ok(fs.statSync(file).mtimeMs >= written);
      const later = await readSnapshot(dir);
      assert.equal(later?.destinations.find((d) => d.destination === 'google.com')?.deferredLastHour, 1);

      // The hour passes: the counts go.
      metrics.tick(now + 2 * hour);
      await metrics.flushed();
      const empty = await readSnapshot(dir);
      assert.deepEqual(
        empty?.destinations.map((d) => [d.destination, d.deferredLastHour, d.backedOff]),
        [
          ['google.com', 0, 0],
          ['yahoodns.net', 0, 0],
        ],
      );

      fs.writeFileSync(file, '{"half');
      assert.equal(await readSnapshot(dir), undefined, 'an unreadable file shows nothing');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
