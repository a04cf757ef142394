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

describe('destination metrics snapshot', () => {
  it('round-trips through DATA_DIR and gives the gauges at scrape time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-dest-metrics-'));
    try {
      assert.equal(readSnapshot(dir), undefined, 'no mta yet');
      const now = 10 * 3_600_000;
      const metrics = new DestinationMetrics(
        () => dir,
        () => ({
          inFlight: new Map([['google.com', 2]]),
          backedOffUntil: new Map([['yahoodns.net', now + 90_000]]),
        }),
        (err) => assert.fail(String(err)),
      );
      metrics.deferred('yahoodns.net', now - 2 * 3_600_000);
      metrics.deferred('yahoodns.net', now - 1_000);
      metrics.write(now);
      const snapshot = readSnapshot(dir);
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
            backoffRemainingSeconds: 60,
            deferredLastHour: 1,
          },
        ],
      );
      fs.writeFileSync(path.join(dir, SNAPSHOT_FILE), '{"half');
      assert.equal(readSnapshot(dir), undefined, 'an unreadable file shows nothing');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
