import fs from 'node:fs';
import path from 'node:path';
import { RateLimiter } from '../shared/rate-limiter';

/**
 * Per-destination concurrency and messages-per-minute caps (issue 22, item 2). A destination is
 * what src/mta/destination-pacing.ts groups by (the MX host's registrable domain). Haraka has only
 * a global `concurrency_max`; the large providers throttle senders that open many connections or
 * send in bursts (Gmail's and Yahoo's sender guidelines ask to "send at a consistent rate"), so
 * each destination gets its own caps: defaults, the overrides below, and the operator's file.
 */
export interface DestinationLimit {
  /** Deliveries in flight at once. */
  readonly concurrency: number;
  /** Deliveries started per rolling minute. */
  readonly perMinute: number;
}

export type DestinationLimits = Readonly<Record<string, DestinationLimit>>;

/** The operator's file in DATA_DIR: `{"default": {...}, "google.com": {...}}`, any key optional. */
export const LIMITS_FILE = 'destination-limits.json';

/**
 * Starting points, not published quotas (no provider publishes one): conservative enough for a
 * new sending IP, and what docs/deliverability.md tells the operator to tune.
 */
const DEFAULT_LIMIT: DestinationLimit = { concurrency: 5, perMinute: 120 };

export const DEFAULT_LIMITS: DestinationLimits = {
  default: DEFAULT_LIMIT,
  'google.com': { concurrency: 10, perMinute: 600 },
  'outlook.com': { concurrency: 10, perMinute: 600 },
  'yahoodns.net': { concurrency: 5, perMinute: 300 },
  'icloud.com': { concurrency: 5, perMinute: 300 },
  'comcast.net': { concurrency: 2, perMinute: 60 },
};

function positiveInteger(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100_000) {
    throw new Error(`${where} must be an integer from 1 to 100000`);
  }
  return value;
}

/** The built-in table with the operator's entries over it; a malformed file fails loudly. */
export function parseLimits(text: string, file: string): DestinationLimits {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file}: expected an object of destinations`);
  }
  const limits: Record<string, DestinationLimit> = { ...DEFAULT_LIMITS };
  // `default` first: a destination the file names without every field inherits the file's default.
  const entries = Object.entries(parsed as Record<string, unknown>).sort(
    ([a], [b]) => Number(b === 'default') - Number(a === 'default'),
  );
  for (const [destination, value] of entries) {
    const entry = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const base = limitFor(limits, destination.toLowerCase());
    limits[destination.toLowerCase()] = {
      concurrency:
        entry.concurrency === undefined
          ? base.concurrency
          : positiveInteger(entry.concurrency, `${file}: ${destination}.concurrency`),
      perMinute:
        entry.perMinute === undefined
          ? base.perMinute
          : positiveInteger(entry.perMinute, `${file}: ${destination}.perMinute`),
    };
  }
  return limits;
}

/** `$DATA_DIR/destination-limits.json` over the defaults; the defaults alone without the file. */
export function loadLimits(dataDir: string): DestinationLimits {
  const file = path.join(dataDir, LIMITS_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_LIMITS;
    throw err;
  }
  return parseLimits(text, file);
}

export function limitFor(limits: DestinationLimits, destination: string): DestinationLimit {
  return limits[destination] ?? limits.default ?? DEFAULT_LIMIT;
}

const MINUTE = 60_000;

/** Why a delivery was not let through; `retryAt` is when to try again (epoch ms). */
export type GateRefusal = { readonly retryAt: number; readonly cap: 'concurrency' | 'rate' };

/**
 * Counts deliveries per destination in the mta process: those in flight (get_mx let them through,
 * no outcome hook yet) and the starts of the last minute, the latter in the same sliding-window
 * limiter the api's abuse throttling uses (src/shared/rate-limiter.ts), with each destination's
 * own limit. Neither keeps an idle destination: the in-flight count is dropped at zero, the
 * limiter sweeps keys idle for two windows.
 */
export class DestinationGate {
  private readonly inFlight = new Map<string, number>();
  private readonly starts: RateLimiter;

  constructor(
    private readonly limits: () => DestinationLimits,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    // The limit passed here is never used: every hit passes the destination's own.
    this.starts = new RateLimiter(1, MINUTE, now);
  }

  /**
   * Lets one delivery to `destination` start (counted until `finished`), or answers when to try
   * again. Not a fixed pause: for the rate cap, when the window lets one more start; for the
   * concurrency cap, about the time the cap's deliveries take at the allowed rate; jittered, so
   * that the messages held together do not return together, and never later than one window.
   */
  tryStart(destination: string): { readonly started: true } | GateRefusal {
    const limit = limitFor(this.limits(), destination);
    const busy = this.inFlight.get(destination) ?? 0;
    if (busy >= limit.concurrency) return { cap: 'concurrency', retryAt: this.retryAt(limit, 1_000) };
    const rate = this.tryStartRate(destination);
    if (!('started' in rate)) return rate;
    this.inFlight.set(destination, busy + 1);
    return { started: true };
  }

  /**
   * The per-minute cap alone: counts one start of a delivery to `destination`, or answers when
   * the window has room again. The worker's sender (src/sender/pacing.ts) uses this: its
   * connection pool waits at the concurrency cap instead of holding the message.
   */
  tryStartRate(destination: string): { readonly started: true } | GateRefusal {
    const limit = limitFor(this.limits(), destination);
    const decision = this.starts.hit(destination, limit.perMinute);
    if (!decision.allowed) return { cap: 'rate', retryAt: this.retryAt(limit, decision.retryAfterS * 1000) };
    return { started: true };
  }

  /** `waitMs` from now plus jitter of about what a slot takes at the allowed rate; at most a window. */
  private retryAt(limit: DestinationLimit, waitMs: number): number {
    // The slot a delivery at the cap frees comes back after about this long.
    const spread = Math.max(1_000, (MINUTE / limit.perMinute) * limit.concurrency);
    return this.now() + Math.min(MINUTE, Math.round(waitMs + this.random() * spread));
  }

  /** A delivery started by tryStart reached an outcome hook. */
  finished(destination: string): void {
    const busy = (this.inFlight.get(destination) ?? 0) - 1;
    if (busy > 0) this.inFlight.set(destination, busy);
    else this.inFlight.delete(destination);
  }

  /** Deliveries in flight per destination (for metrics). */
  inFlightCounts(): ReadonlyMap<string, number> {
    return this.inFlight;
  }

  /** Entries held (in-flight counts and rate windows): an idle destination's go within two windows. */
  heldEntries(): number {
    this.starts.sweep();
    return this.inFlight.size + this.starts.size;
  }

  stop(): void {
    this.starts.stop();
  }
}
