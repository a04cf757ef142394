import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import {
  countAttemptBelow,
  deleteWindowsBefore,
  uncountAttempt,
  windowHits,
} from './credential-attempts.repository';

/** What a limiter answers for one attempt (the shape src/http/rate-limit.ts renders as 429). */
export interface AttemptDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until an attempt would be allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

/** An allowed attempt, counted until {@link CountedAttempt.uncount} takes it back. */
export interface CountedAttempt extends AttemptDecision {
  /** Takes the attempt back out of the count: it succeeded (a no-op when refused). */
  uncount(): Promise<void>;
}

/**
 * The budget of credential attempts per key (`<scope>:<client IP>`), kept in the database
 * (issue 23 item 3): the nodes of a cluster share one PostgreSQL, so an attacker spreading
 * password guesses over the nodes behind a load balancer still gets AUTH_RATE_LIMIT_PER_15_MIN
 * in all, not that many per node; and a restart no longer resets it. On SQLite too: one path,
 * and credential attempts already write (the audit row of every login), so the upsert costs
 * nothing a user notices (docs/security.md, "Credential limits").
 *
 * The estimate is the in-memory limiter's (src/shared/rate-limiter.ts): two fixed windows, the
 * previous one weighted by how much of it still overlaps the sliding window.
 */
export class CredentialAttempts {
  private purgedWindow = '';

  constructor(
    private readonly db: Kysely<Database>,
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one attempt for `key` if it is within the budget; refused attempts are not counted.
   * Counted before the attempt runs, in one conditional upsert, so attempts racing on several
   * nodes never overshoot; one that succeeds is then taken back ({@link CountedAttempt.uncount}),
   * so only failures fill the budget (issue 28 item 6: a new user's getting-started steps
   * and a dashboard sign-up locked the IP out).
   */
  async hit(key: string): Promise<CountedAttempt> {
    const w = this.windows();
    await this.purge(w.previous);
    const previous = await windowHits(this.db, key, w.previous);
    const most = Math.floor(this.limit - previous * (1 - w.elapsed));
    const hits = most < 1 ? undefined : await countAttemptBelow(this.db, key, w.current, most);
    if (hits === undefined) {
      const current = await windowHits(this.db, key, w.current);
      const retryAfterS = Math.max(1, Math.ceil((this.reopensAt(previous, current, w.start) - w.now) / 1000));
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterS, uncount: async () => {} };
    }
    return {
      allowed: true,
      limit: this.limit,
      remaining: Math.max(0, most - hits),
      retryAfterS: 0,
      uncount: () => uncountAttempt(this.db, key, w.current),
    };
  }

  /**
   * When the estimate lets an attempt in again, counting nothing new, for `previous` and
   * `current` attempts in the windows before and starting at `start`: the real remaining
   * time, so every 429 names the same moment whatever second it is sent in. Allowed once
   * limit - previous * (1 - elapsed) >= current + 1; failing that in this window, in the next
   * one with `current` as its previous window and none in it.
   */
  private reopensAt(previous: number, current: number, start: number): number {
    const room = this.limit - current - 1;
    // The previous window's weight falls to `room` within this window.
    if (room > 0 && previous > 0) return Math.ceil(start + (1 - room / previous) * this.windowMs);
    const next = start + this.windowMs;
    if (current <= this.limit - 1) return next;
    return Math.ceil(next + (1 - (this.limit - 1) / current) * this.windowMs);
  }

  /** Whether `key` has spent its budget (for failures counted by {@link recordFailure}). */
  async blocked(key: string): Promise<boolean> {
    return (await this.mostInCurrent(key, this.windows())) <= (await this.currentHits(key));
  }

  /** Counts one failed attempt for `key`, whatever the budget says. */
  async recordFailure(key: string): Promise<void> {
    const w = this.windows();
    await this.purge(w.previous);
    await countAttemptBelow(this.db, key, w.current, Number.MAX_SAFE_INTEGER);
  }

  private windows(): { now: number; start: number; current: string; previous: string; elapsed: number } {
    const now = this.now();
    const start = now - (now % this.windowMs);
    return {
      now,
      start,
      current: new Date(start).toISOString(),
      previous: new Date(start - this.windowMs).toISOString(),
      elapsed: (now - start) / this.windowMs,
    };
  }

  private async currentHits(key: string): Promise<number> {
    return windowHits(this.db, key, this.windows().current);
  }

  /** Attempts the current window may hold: the limit less the previous window's overlapping share. */
  private async mostInCurrent(key: string, w: { previous: string; elapsed: number }): Promise<number> {
    const previous = await windowHits(this.db, key, w.previous);
    return Math.floor(this.limit - previous * (1 - w.elapsed));
  }

  /** Once per window and process: windows before the previous one are read by nobody. */
  private async purge(previous: string): Promise<void> {
    if (this.purgedWindow === previous) return;
    this.purgedWindow = previous;
    await deleteWindowsBefore(this.db, previous);
  }
}
