import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter } from '../../../src/shared/rate-limiter';

describe('RateLimiter', () => {
  it('allows up to the limit per key within a window and says when to retry', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(3, 60_000, () => now);
    const results = [1, 2, 3, 4].map(() => limiter.hit('ip').allowed);
    assert.deepEqual(results, [true, true, true, false]);
    assert.equal(limiter.hit('other').allowed, true);
    const refused = limiter.hit('ip');
    assert.ok(refused.retryAfterS >= 1 && refused.retryAfterS <= 60);
    now += 120_000;
    assert.equal(limiter.hit('ip').allowed, true);
    limiter.stop();
  });

  it('weighs the previous window so a burst at a boundary is not doubled', () => {
    let now = 0;
    const limiter = new RateLimiter(10, 60_000, () => now);
    now = 59_000;
    for (let i = 0; i < 10; i++) assert.equal(limiter.hit('k').allowed, true);
    now = 61_000; // just into the next window: ~97% of the previous one still counts
    assert.equal(limiter.hit('k').allowed, false);
    now = 60_000 + 59_000;
    assert.equal(limiter.hit('k').allowed, true);
    limiter.stop();
  });
});
