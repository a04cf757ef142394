import fs from 'node:fs';
import path from 'node:path';

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

/**
 * Counts deliveries per destination in the mta process: those in flight (get_mx let them through,
 * no outcome hook yet) and the starts of the last minute.
 */
export class DestinationGate {
  private readonly inFlight = new Map<string, number>();
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly limits: () => DestinationLimits) {}

  /**
   * Lets one delivery to `destination` start at `now` (counted until `finished`), or answers the
   * epoch ms at which to try again: soon for a full concurrency cap, when the oldest start of the
   * minute leaves the window for the rate cap.
   */
  tryStart(destination: string, now: number): { readonly started: true } | { readonly retryAt: number } {
    const limit = limitFor(this.limits(), destination);
    const recent = (this.starts.get(destination) ?? []).filter((t) => t > now - MINUTE);
    if (recent.length >= limit.perMinute) {
      this.starts.set(destination, recent);
      return { retryAt: (recent[0] ?? now) + MINUTE };
    }
    const busy = this.inFlight.get(destination) ?? 0;
    if (busy >= limit.concurrency) return { retryAt: now + 5_000 };
    recent.push(now);
    this.starts.set(destination, recent);
    this.inFlight.set(destination, busy + 1);
    return { started: true };
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
}
