/**
 * In-memory sliding-window counter (two fixed windows, weighted), one per key.
 * Memory is bounded: stale keys are swept on a timer. The api process is the
 * only one that serves HTTP, so process memory is the right scope; counters reset
 * on restart, which is acceptable for abuse throttling (documented in docs/api.md).
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

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(windowMs, 10_000));
    this.sweeper.unref();
  }

  /** Counts one hit for `key` and says whether it is within the limit. Refused hits are not counted. */
  hit(key: string): RateDecision {
    const now = this.now();
    const w = this.roll(key, now);
    const elapsed = (now - w.start) / this.windowMs;
    const estimate = w.previous * (1 - elapsed) + w.current;
    if (estimate + 1 > this.limit) {
      const retryAfterS = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterS };
    }
    w.current += 1;
    return {
      allowed: true,
      limit: this.limit,
      remaining: Math.max(0, Math.floor(this.limit - estimate - 1)),
      retryAfterS: 0,
    };
  }

  private roll(key: string, now: number): Window {
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w) {
      w = { start, current: 0, previous: 0 };
      this.windows.set(key, w);
    } else if (w.start !== start) {
      w.previous = start - w.start === this.windowMs ? w.current : 0;
      w.current = 0;
      w.start = start;
    }
    return w;
  }

  private sweep(): void {
    const cutoff = this.now() - 2 * this.windowMs;
    for (const [key, w] of this.windows) if (w.start < cutoff) this.windows.delete(key);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}
