import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../shared/private-files';

/**
 * Per-destination metrics (issue 22, item 2) cross from the mta process to `/metrics`, which the
 * api process serves, through a small snapshot file in DATA_DIR: the pacing state lives only in
 * the mta's memory, and every other gauge is read from shared storage at scrape time too.
 */
export const SNAPSHOT_FILE = 'mta-destinations.json';

/** At most this many destinations are reported: label values must stay bounded. */
const MAX_DESTINATIONS = 100;
const HOUR_MS = 3_600_000;

export interface DestinationSnapshotEntry {
  readonly destination: string;
  readonly inFlight: number;
  /** Epoch ms of the back-off's end; 0 when none was ever on. */
  readonly backedOffUntil: number;
  /** Epoch ms of the deferrals of the last hour. */
  readonly deferredAt: readonly number[];
}

export interface DestinationSnapshot {
  /** Epoch ms when the mta wrote it. */
  readonly at: number;
  readonly destinations: readonly DestinationSnapshotEntry[];
}

/** What the api's gauges show for one destination at `now`. */
export interface DestinationGaugeValues {
  readonly destination: string;
  readonly inFlight: number;
  readonly backedOff: 0 | 1;
  readonly backoffRemainingSeconds: number;
  readonly deferredLastHour: number;
}

export function gaugeValues(snapshot: DestinationSnapshot, now: number): DestinationGaugeValues[] {
  return snapshot.destinations.map((d) => ({
    destination: d.destination,
    inFlight: d.inFlight,
    backedOff: d.backedOffUntil > now ? 1 : 0,
    backoffRemainingSeconds: Math.max(0, Math.ceil((d.backedOffUntil - now) / 1000)),
    deferredLastHour: d.deferredAt.filter((t) => t > now - HOUR_MS).length,
  }));
}

/** The snapshot the mta left in `dataDir`, or none (no mta yet, or a file being replaced). */
export function readSnapshot(dataDir: string): DestinationSnapshot | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, SNAPSHOT_FILE), 'utf8')) as unknown;
    const snapshot = parsed as DestinationSnapshot;
    return typeof snapshot.at === 'number' && Array.isArray(snapshot.destinations) ? snapshot : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The mta side: collects deferrals, and rewrites the snapshot (write + rename, so a scrape never
 * reads half a file) at most once a second after a change.
 */
export class DestinationMetrics {
  private readonly deferrals = new Map<string, number[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataDir: () => string,
    private readonly state: () => {
      readonly inFlight: ReadonlyMap<string, number>;
      readonly backedOffUntil: ReadonlyMap<string, number>;
    },
    private readonly onError: (err: unknown) => void,
  ) {}

  deferred(destination: string, now: number): void {
    const times = (this.deferrals.get(destination) ?? []).filter((t) => t > now - HOUR_MS);
    times.push(now);
    // Bounded memory: the gauge counts up to this many per hour.
    this.deferrals.set(destination, times.slice(-10_000));
    this.changed();
  }

  changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      try {
        this.write(Date.now());
      } catch (err) {
        this.onError(err);
      }
    }, 1_000).unref();
  }

  snapshot(now: number): DestinationSnapshot {
    const { inFlight, backedOffUntil } = this.state();
    for (const [d, times] of this.deferrals) {
      const recent = times.filter((t) => t > now - HOUR_MS);
      if (recent.length === 0) this.deferrals.delete(d);
      else this.deferrals.set(d, recent);
    }
    const names = new Set([...inFlight.keys(), ...backedOffUntil.keys(), ...this.deferrals.keys()]);
    const destinations = [...names].map((destination) => ({
      destination,
      inFlight: inFlight.get(destination) ?? 0,
      backedOffUntil: backedOffUntil.get(destination) ?? 0,
      deferredAt: this.deferrals.get(destination) ?? [],
    }));
    // The busiest first when there are too many to report.
    destinations.sort((a, b) => b.inFlight + b.deferredAt.length - (a.inFlight + a.deferredAt.length));
    return { at: now, destinations: destinations.slice(0, MAX_DESTINATIONS) };
  }

  write(now: number): void {
    const file = path.join(this.dataDir(), SNAPSHOT_FILE);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(this.snapshot(now)), { mode: PRIVATE_FILE_MODE });
    fs.renameSync(`${file}.tmp`, file);
  }
}
