/**
 * In-memory sliding-window counter (two fixed windows, weighted), one per key.
 * Memory is bounded twice: stale keys are swept on a timer, and at most `maxKeys`
 * are held at once (issue 17 finding 8: spoofed addresses grew the map without bound
 * within a window). Process memory is the right scope for both users: the api's abuse
 * throttling (counters reset on restart, documented in docs/api.md) and the mta's
 * per-destination messages-per-minute caps (src/mta/destination-limits.ts), which pass
 * each key's own limit to `hit`. The api's per-request limit stays per api process even
 * in a cluster — per node, N× behind a load balancer (docs/scaling.md, "Rate limits"):
 * counting every request in the database would add a write to each. Credential attempts,
 * where a per-node budget would multiply an attacker's guesses, are counted in the
 * database instead (src/modules/accounts/credential-attempts.ts).
 */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until a request would be allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

interface Window {
  start: number;
  current: number;
  previous: number;
}

/** Keys held at most by default: some 100 bytes each, so about 10 MB per limiter. */
export const DEFAULT_MAX_KEYS = 100_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    readonly maxKeys: number = DEFAULT_MAX_KEYS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(windowMs, 10_000));
    this.sweeper.unref();
  }

  /**
   * Counts one hit for `key` and says whether it is within `limit` (the limiter's own unless
   * the key has its own). Refused hits are not counted.
   */
  hit(key: string, limit: number = this.limit): RateDecision {
    const now = this.now();
    const w = this.roll(key, now);
    const elapsed = (now - w.start) / this.windowMs;
    const estimate = w.previous * (1 - elapsed) + w.current;
    if (estimate + 1 > limit) {
      const retryAfterS = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
      return { allowed: false, limit, remaining: 0, retryAfterS };
    }
    w.current += 1;
    return {
      allowed: true,
      limit,
      remaining: Math.max(0, Math.floor(limit - estimate - 1)),
      retryAfterS: 0,
    };
  }

  private roll(key: string, now: number): Window {
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w) {
      // Full: drop the key first in the map's (insertion) order. Keys move to the end when
      // their window rolls, so that is one idle longest; a key seen in this window goes only
      // when more than maxKeys others were seen since. O(1), unlike a sweep per insert.
      if (this.windows.size >= this.maxKeys) {
        const oldest = this.windows.keys().next();
        if (oldest.done !== true) this.windows.delete(oldest.value);
      }
      w = { start, current: 0, previous: 0 };
      this.windows.set(key, w);
    } else if (w.start !== start) {
      w.previous = start - w.start === this.windowMs ? w.current : 0;
      w.current = 0;
      w.start = start;
      this.windows.delete(key);
      this.windows.set(key, w);
    }
    return w;
  }

  /** Keys currently held (never more than maxKeys). */
  get size(): number {
    return this.windows.size;
  }

  /** Drops the keys idle for two windows (also on a timer). */
  sweep(): void {
    const cutoff = this.now() - 2 * this.windowMs;
    for (const [key, w] of this.windows) if (w.start < cutoff) this.windows.delete(key);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}
