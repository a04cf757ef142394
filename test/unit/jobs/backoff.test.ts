import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, DEFAULT_BACKOFF } from '../../../src/jobs/backoff';

const policy = { baseMs: 1_000, maxMs: 10_000, jitter: 0.5 };

void describe('backoffMs', () => {
  void it('doubles from the base with each attempt', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffMs(n, policy, () => 0)),
      [1_000, 2_000, 4_000, 8_000],
    );
  });

  void it('caps the exponential part, even for absurd attempt counts', () => {
    assert.equal(
      backoffMs(5, policy, () => 0),
      10_000,
    );
    assert.equal(
      backoffMs(10_000, policy, () => 0),
      10_000,
    );
  });

  void it('adds up to `jitter` of the delay at random, on top of the cap too', () => {
    assert.equal(
      backoffMs(1, policy, () => 0.999),
      1_500,
    );
    assert.equal(
      backoffMs(20, policy, () => 0.5),
      12_500,
    );
    const spread = new Set(Array.from({ length: 50 }, () => backoffMs(3, policy)));
    assert.ok(spread.size > 10, 'jitter spreads retries');
    for (const d of spread) assert.ok(d >= 4_000 && d <= 6_000);
  });

  void it('defaults to one second doubling up to an hour', () => {
    assert.equal(
      backoffMs(1, undefined, () => 0),
      1_000,
    );
    assert.equal(
      backoffMs(30, undefined, () => 0),
      DEFAULT_BACKOFF.maxMs,
    );
    assert.equal(DEFAULT_BACKOFF.maxMs, 3_600_000);
  });
});
