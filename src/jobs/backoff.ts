export interface BackoffPolicy {
  /** Delay before the second attempt; each further attempt doubles it. */
  readonly baseMs: number;
  /** Ceiling of the exponential part. */
  readonly maxMs: number;
  /** Up to this fraction of the delay is added at random. */
  readonly jitter: number;
}

/** 1 s, 2 s, 4 s, … capped at an hour; queues with their own schedule pass another policy. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 3_600_000, jitter: 0.25 };

/**
 * Delay before retrying after `attempts` failed attempts. The jitter is added after
 * the cap so that jobs which failed together (a peer was down) do not all come back
 * in the same instant, even once they have reached the cap.
 */
export function backoffMs(
  attempts: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random = Math.random,
): number {
  const exponent = Math.max(0, Math.floor(attempts) - 1);
  const delay = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.round(delay + delay * policy.jitter * random());
}
