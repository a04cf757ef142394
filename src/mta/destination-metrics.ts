import fs from 'node:fs';
import path from 'node:path';
import { StateFile } from './destination-state-file';

/**
 * Per-destination metrics (issue 22, item 2) cross from the mta process to `/metrics`, which the
 * api process serves, through a small snapshot file in DATA_DIR: the pacing state lives only in
 * the mta's memory, and every other gauge is read from shared storage at scrape time too.
 *
 * The mta does the counting and writes the four numbers per destination every few seconds, off
 * its event loop (issue 22 review, item 1: it used to rewrite every deferral's timestamp with
 * synchronous fs up to once a second, and every scrape parsed them all); the api only reads them.
 */
export const SNAPSHOT_FILE = 'mta-destinations.json';

/** How often the mta rewrites the snapshot (when a number changed). */
export const SNAPSHOT_INTERVAL_MS = 5_000;

/** At most this many destinations are reported: label values must stay bounded. */
const MAX_DESTINATIONS = 100;
const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;

/** What the gauges show for one destination, as the mta counted it at the snapshot's `at`. */
export interface DestinationGaugeValues {
  readonly destination: string;
  readonly inFlight: number;
  readonly backedOff: 0 | 1;
  readonly backoffRemainingSeconds: number;
  readonly deferredLastHour: number;
}

export interface DestinationSnapshot {
  /** Epoch ms when the mta wrote it. */
  readonly at: number;
  readonly destinations: readonly DestinationGaugeValues[];
}

/**
 * The gauges at `now`: the snapshot's numbers, with the back-off's remaining time run down by
 * the snapshot's age (it is up to one interval old; the back-off ends on time regardless).
 */
export function gaugeValues(snapshot: DestinationSnapshot, now: number): DestinationGaugeValues[] {
  const elapsed = Math.max(0, Math.floor((now - snapshot.at) / 1000));
  return snapshot.destinations.map((d) => {
    const remaining = Math.max(0, d.backoffRemainingSeconds - elapsed);
    return { ...d, backedOff: remaining > 0 ? 1 : 0, backoffRemainingSeconds: remaining };
  });
}

function isEntry(v: unknown): v is DestinationGaugeValues {
  const e = v as Record<string, unknown> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.destination === 'string' &&
    ['inFlight', 'backedOff', 'backoffRemainingSeconds', 'deferredLastHour'].every(
      (k) => typeof e[k] === 'number',
    )
  );
}

/** The snapshot the mta left in `dataDir`, or none (no mta yet, or a file from another version). */
export async function readSnapshot(dataDir: string): Promise<DestinationSnapshot | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.promises.readFile(path.join(dataDir, SNAPSHOT_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const snapshot = parsed as { at?: unknown; destinations?: unknown } | null;
  if (typeof snapshot?.at !== 'number' || !Array.isArray(snapshot.destinations)) return undefined;
  return { at: snapshot.at, destinations: snapshot.destinations.filter(isEntry) };
}

/** The mta side: counts deferrals per minute, and writes the snapshot on a timer. */
export class DestinationMetrics {
  /** Per destination: deferrals per minute (epoch minute → count), the last hour's only. */
  private readonly deferrals = new Map<string, Map<number, number>>();
  private readonly file: StateFile;
  private timer: NodeJS.Timeout | undefined;
  private lastWritten = '';

  constructor(
    private readonly dataDir: () => string,
    private readonly state: () => {
      readonly inFlight: ReadonlyMap<string, number>;
      readonly backedOffUntil: ReadonlyMap<string, number>;
    },
    onError: (err: unknown) => void,
  ) {
    this.file = new StateFile(() => path.join(this.dataDir(), SNAPSHOT_FILE), onError);
  }

  /** Writes every SNAPSHOT_INTERVAL_MS from now on; the timer does not keep the process alive. */
  start(intervalMs = SNAPSHOT_INTERVAL_MS): void {
    this.timer ??= setInterval(() => this.tick(Date.now()), intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A deferral the timeline records (a remote 4xx, no MX reachable, a hold beginning). */
  deferred(destination: string, now: number): void {
    const minute = Math.floor(now / MINUTE_MS);
    const counts = this.deferrals.get(destination) ?? new Map<number, number>();
    counts.set(minute, (counts.get(minute) ?? 0) + 1);
    this.deferrals.set(destination, counts);
  }

  snapshot(now: number): DestinationSnapshot {
    const { inFlight, backedOffUntil } = this.state();
    const oldest = Math.floor(now / MINUTE_MS) - HOUR_MINUTES;
    const deferredLastHour = new Map<string, number>();
    for (const [destination, counts] of this.deferrals) {
      let sum = 0;
      for (const [minute, count] of counts) {
        if (minute <= oldest) counts.delete(minute);
        else sum += count;
      }
      if (counts.size === 0) this.deferrals.delete(destination);
      else deferredLastHour.set(destination, sum);
    }
    const names = new Set([...inFlight.keys(), ...backedOffUntil.keys(), ...deferredLastHour.keys()]);
    const destinations = [...names].map((destination): DestinationGaugeValues => {
      const remaining = Math.max(0, Math.ceil(((backedOffUntil.get(destination) ?? 0) - now) / 1000));
      return {
        destination,
        inFlight: inFlight.get(destination) ?? 0,
        backedOff: remaining > 0 ? 1 : 0,
        backoffRemainingSeconds: remaining,
        deferredLastHour: deferredLastHour.get(destination) ?? 0,
      };
    });
    // The busiest first when there are too many to report.
    destinations.sort((a, b) => b.inFlight + b.deferredLastHour - (a.inFlight + a.deferredLastHour));
    return { at: now, destinations: destinations.slice(0, MAX_DESTINATIONS) };
  }

  /**
   * Hands the snapshot to the writer when a number changed since the last one written. A
   * back-off running down is not a change: the api runs the remaining time down itself.
   */
  tick(now: number): void {
    const { destinations } = this.snapshot(now);
    const until = this.state().backedOffUntil;
    const numbers = JSON.stringify(
      destinations.map((d) => [
        d.destination,
        d.inFlight,
        d.deferredLastHour,
        d.backedOff === 1 ? until.get(d.destination) : 0,
      ]),
    );
    if (numbers === this.lastWritten) return;
    this.lastWritten = numbers;
    this.file.write(JSON.stringify({ at: now, destinations }));
  }

  /** Resolves once the snapshots handed to the writer are on disk (tests, a graceful stop). */
  flushed(): Promise<void> {
    return this.file.flushed();
  }
}
