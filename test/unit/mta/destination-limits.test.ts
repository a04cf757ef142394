import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
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
  let now = 0;
  const clock = () => now;
  const gates: DestinationGate[] = [];
  const gateOf = (limit: { concurrency: number; perMinute: number }, random = () => 0) => {
    const gate = new DestinationGate(() => ({ default: limit }), clock, random);
    gates.push(gate);
    return gate;
  };
  after(() => {
    for (const g of gates) g.stop();
  });

  it('caps deliveries in flight per destination, retrying jittered within the window', () => {
    now = 0;
    const gate = gateOf({ concurrency: 2, perMinute: 120 });
    assert.deepEqual(gate.tryStart('a.com'), { started: true });
    assert.deepEqual(gate.tryStart('a.com'), { started: true });
    // Not a fixed 5 s: a second, plus up to the time the cap's two deliveries take at 120/min.
    now = 2;
    assert.deepEqual(gate.tryStart('a.com'), { cap: 'concurrency', retryAt: 1_002 });
    const high = gateOf({ concurrency: 2, perMinute: 120 }, () => 0.999);
    high.tryStart('a.com');
    high.tryStart('a.com');
    assert.deepEqual(high.tryStart('a.com'), { cap: 'concurrency', retryAt: 2 + 1_000 + 999 });
    assert.deepEqual(gate.tryStart('b.com'), { started: true }, 'other destinations are not held');
    gate.finished('a.com');
    assert.deepEqual(gate.tryStart('a.com'), { started: true });
    assert.equal(gate.inFlightCounts().get('a.com'), 2);
    // A slow destination (one a minute, five at once): never later than one window.
    const slow = gateOf({ concurrency: 1, perMinute: 1 }, () => 0.999);
    slow.tryStart('s.com');
    const refused = slow.tryStart('s.com');
    assert.ok('retryAt' in refused && refused.retryAt <= now + 60_000, JSON.stringify(refused));
  });

  it('caps deliveries started per minute with the shared sliding-window limiter', () => {
    now = 1_000;
    const gate = gateOf({ concurrency: 100, perMinute: 2 });
    gate.tryStart('a.com');
    gate.finished('a.com');
    now = 20_000;
    gate.tryStart('a.com');
    gate.finished('a.com');
    now = 30_000;
    // The window (src/shared/rate-limiter.ts) opens again at 60 000.
    assert.deepEqual(gate.tryStart('a.com'), { cap: 'rate', retryAt: 60_000 });
    now = 121_000;
    assert.deepEqual(gate.tryStart('a.com'), { started: true });
  });

  it('forgets idle destinations', () => {
    now = 0;
    const gate = gateOf({ concurrency: 5, perMinute: 100 });
    for (let i = 0; i < 50; i++) {
      gate.tryStart(`d${i}.com`);
      gate.finished(`d${i}.com`);
    }
    assert.equal(gate.heldEntries(), 50);
    now = 3 * 60_000;
    assert.equal(gate.heldEntries(), 0);
  });
});
