import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  DEFAULT_LIMITS,
  DestinationGate,
  LIMITS_FILE,
  limitFor,
  loadLimits,
  parseLimits,
} from '../../../src/mta/destination-limits';

describe('destination limits', () => {
  it('has defaults and overrides for the large providers', () => {
    assert.deepEqual(limitFor(DEFAULT_LIMITS, 'example.org'), DEFAULT_LIMITS.default);
    assert.ok(
      limitFor(DEFAULT_LIMITS, 'google.com').perMinute > limitFor(DEFAULT_LIMITS, 'example.org').perMinute,
    );
    for (const big of ['google.com', 'outlook.com', 'yahoodns.net', 'icloud.com']) {
      assert.ok(DEFAULT_LIMITS[big], big);
    }
  });

  it('lays the operator file over the defaults, field by field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-limits-'));
    try {
      assert.equal(loadLimits(dir), DEFAULT_LIMITS, 'no file: the defaults');
      fs.writeFileSync(
        path.join(dir, LIMITS_FILE),
        JSON.stringify({
          'Google.com': { perMinute: 50 },
          'small.net': { perMinute: 3 },
          default: { concurrency: 2 },
        }),
      );
      const limits = loadLimits(dir);
      assert.deepEqual(limitFor(limits, 'other.org'), { concurrency: 2, perMinute: 120 });
      assert.deepEqual(limitFor(limits, 'google.com'), { concurrency: 10, perMinute: 50 });
      assert.deepEqual(limitFor(limits, 'small.net'), { concurrency: 2, perMinute: 3 }, 'the file’s default');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed file loudly', () => {
    assert.throws(() => parseLimits('[]', 'f.json'), /f\.json: expected an object/);
    assert.throws(
      () => parseLimits('{"a.com": {"perMinute": 0}}', 'f.json'),
      /a\.com\.perMinute must be an integer/,
    );
    assert.throws(() => parseLimits('{"a.com": {"concurrency": 1.5}}', 'f.json'), /a\.com\.concurrency/);
    assert.throws(() => parseLimits('{', 'f.json'), SyntaxError);
  });
});

describe('DestinationGate', () => {
  it('caps deliveries in flight per destination', () => {
    const gate = new DestinationGate(() => ({ default: { concurrency: 2, perMinute: 100 } }));
    assert.deepEqual(gate.tryStart('a.com', 0), { started: true });
    assert.deepEqual(gate.tryStart('a.com', 1), { started: true });
    assert.deepEqual(gate.tryStart('a.com', 2), { retryAt: 5_002 });
    assert.deepEqual(gate.tryStart('b.com', 3), { started: true }, 'other destinations are not held');
    gate.finished('a.com');
    assert.deepEqual(gate.tryStart('a.com', 4), { started: true });
    assert.equal(gate.inFlightCounts().get('a.com'), 2);
  });

  it('caps deliveries started per rolling minute', () => {
    const gate = new DestinationGate(() => ({ default: { concurrency: 100, perMinute: 2 } }));
    gate.tryStart('a.com', 1_000);
    gate.finished('a.com');
    gate.tryStart('a.com', 20_000);
    gate.finished('a.com');
    assert.deepEqual(gate.tryStart('a.com', 30_000), { retryAt: 61_000 });
    assert.deepEqual(gate.tryStart('a.com', 61_001), { started: true });
  });
});
