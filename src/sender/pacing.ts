/**
 * Per-destination pacing of the worker's own sender (issue 31 item 3), from the parts the MTA's
 * pacing plugin uses (src/mta/destination-pacing.ts, destination-limits.ts,
 * destination-backoff-file.ts): a destination — the registrable domain of the MX host — that
 * answered a throttling reply is backed off as a whole; one at its per-minute cap is held. A held
 * delivery opens no connection; the caller records it as a hold, not an attempt, and runs it
 * again at `retryAt` (src/modules/delivery/direct-delivery.ts). The concurrency cap is not a hold
 * here: the connection pool (connection-pool.ts) makes a delivery wait for a connection instead.
 *
 * State is this node's, in memory: the per-minute windows (lost at a restart, refilled within a
 * minute) and the back-off table, which is also kept in `$DATA_DIR/sender-backoff.json`
 * (rewritten when it changes, read at start) so a restart does not hammer a provider that asked
 * us to slow down. Per node on purpose: a provider throttles a sending address, and each node
 * sends from its own (docs/deliverability.md).
 */
import path from 'node:path';
import { backoffFileText, parseBackoffFile } from '../mta/destination-backoff-file';
import type { DestinationLimits } from '../mta/destination-limits';
import { DestinationGate } from '../mta/destination-limits';
import type { BackoffOptions, DeferralReply, DestinationStanding } from '../mta/destination-pacing';
import {
  atLimitText,
  DEFAULT_BACKOFF,
  DestinationBackoff,
  heldRetryAt,
  isThrottling,
  waitingText,
} from '../mta/destination-pacing';
import { DestinationMetrics } from '../mta/destination-metrics';
import { readStateFile, StateFile } from '../mta/destination-state-file';

/** The worker's back-off table in DATA_DIR (the MTA's own is mta-backoff.json: both may run on one node). */
export const SENDER_BACKOFF_FILE = 'sender-backoff.json';

/** Why a delivery is held, and until when. */
export interface Hold {
  readonly destination: string;
  /** Epoch ms: when to try again (jittered). */
  readonly retryAt: number;
  /** The timeline's note (`waiting: …`). */
  readonly text: string;
}

/** What one delivery to a destination got, as the pacing reads it. */
export interface DeliveryReading {
  /** At least one recipient delivered. */
  readonly delivered: boolean;
  /** The deferrals' replies (remote 4xx, or every MX unreachable). */
  readonly deferrals: readonly DeferralReply[];
}

export interface PacingOptions {
  readonly limits: () => DestinationLimits;
  readonly backoff?: Partial<Pick<BackoffOptions, 'baseMs' | 'capMs'>> | undefined;
  /** DATA_DIR: the back-off table is kept there; absent, in memory only. */
  readonly dataDir?: string | undefined;
  readonly log?: ((event: string, fields: Readonly<Record<string, unknown>>) => void) | undefined;
  readonly now?: () => number;
  readonly random?: () => number;
  /**
   * Write the `mail_destination_*` gauges' snapshot into DATA_DIR (src/mta/destination-metrics.ts,
   * the file `/metrics` reads) every few seconds. The worker does with OUTBOUND_SENDER=worker,
   * where the MTA paces nothing; needs `dataDir`.
   */
  readonly gauges?: boolean | undefined;
}

export class SenderPacing {
  private readonly gate: DestinationGate;
  private readonly backoff: DestinationBackoff;
  private readonly store: StateFile | undefined;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: NonNullable<PacingOptions['log']>;
  /** Deliveries let through and not yet answered, per destination (the in-flight gauge). */
  private readonly inFlight = new Map<string, number>();
  private readonly metrics: DestinationMetrics | undefined;

  constructor(options: PacingOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => undefined);
    this.gate = new DestinationGate(options.limits, this.now, this.random);
    const file = options.dataDir === undefined ? undefined : path.join(options.dataDir, SENDER_BACKOFF_FILE);
    this.store =
      file === undefined
        ? undefined
        : new StateFile(
            () => file,
            (err) =>
              this.log('sender_destination_backoff_save_failed', {
                error: err instanceof Error ? err.message : String(err),
              }),
          );
    this.backoff = new DestinationBackoff(
      { ...DEFAULT_BACKOFF, ...options.backoff, random: this.random },
      (standings) => this.store?.write(backoffFileText(standings)),
    );
    const dataDir = options.dataDir;
    this.metrics =
      options.gauges === true && dataDir !== undefined
        ? new DestinationMetrics(
            () => dataDir,
            () => ({
              inFlight: this.inFlight,
              backedOffUntil: new Map(this.backoff.standings().map((b) => [b.destination, b.until])),
            }),
            (err) =>
              this.log('sender_destination_metrics_failed', {
                error: err instanceof Error ? err.message : String(err),
              }),
          )
        : undefined;
    this.metrics?.start();
    if (file !== undefined) {
      let text: string | undefined;
      try {
        text = readStateFile(file);
      } catch (err) {
        this.log('sender_destination_backoff_unreadable', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
      const restored = this.backoff.restore(parseBackoffFile(text ?? ''), this.now());
      if (restored > 0) {
        this.log('sender_destination_backoff_restored', {
          destinations: this.backoff.standings().map((s) => s.destination),
        });
      }
    }
  }

  /**
   * Whether a delivery to `destination` is held (backed off, or at its per-minute cap); a
   * delivery let through is counted against the per-minute cap.
   */
  hold(destination: string): Hold | undefined {
    const now = this.now();
    const backedOff = this.backoff.backedOff(destination, now);
    let hold: Hold | undefined;
    if (backedOff !== undefined) {
      hold = {
        destination,
        retryAt: heldRetryAt(backedOff.until, now, this.random),
        text: waitingText(backedOff),
      };
    } else {
      const admitted = this.gate.tryStartRate(destination);
      if ('started' in admitted) {
        this.inFlight.set(destination, (this.inFlight.get(destination) ?? 0) + 1);
        return undefined;
      }
      hold = { destination, retryAt: admitted.retryAt, text: atLimitText(destination) };
    }
    this.log('sender_destination_held', {
      destination,
      retryAt: new Date(hold.retryAt).toISOString(),
      reason: hold.text,
    });
    return hold;
  }

  /**
   * After a delivery to `destination`: a throttling deferral backs it off (one episode per
   * back-off: replies while it is on do not grow it), a delivery lets it resume gradually.
   * Answers when the deferred recipients may be tried again at the earliest: the back-off's end
   * (jittered) while one is on, so their retry does not meet it and spend an attempt.
   */
  delivered(destination: string, reading: DeliveryReading): number | undefined {
    const now = this.now();
    this.finished(destination);
    for (let i = 0; i < reading.deferrals.length; i++) this.metrics?.deferred(destination, now);
    const throttling = reading.deferrals.find((d) => isThrottling(d));
    let standing: DestinationStanding | undefined;
    if (throttling !== undefined) {
      standing = this.backoff.throttled(destination, now);
      this.log('sender_destination_backoff', {
        destination,
        level: standing.level,
        until: new Date(standing.until).toISOString(),
        reply: throttling.text,
      });
    } else {
      if (reading.delivered) this.backoff.delivered(destination);
      standing = this.backoff.backedOff(destination, now);
    }
    if (standing === undefined || reading.deferrals.length === 0) return undefined;
    return heldRetryAt(standing.until, now, this.random);
  }

  /** A delivery let through by `hold` ended without an answer to read (it threw). */
  finished(destination: string): void {
    const n = (this.inFlight.get(destination) ?? 0) - 1;
    if (n > 0) this.inFlight.set(destination, n);
    else this.inFlight.delete(destination);
  }

  /** The gauges' numbers now (what the snapshot file gets). */
  gaugeSnapshot(): ReturnType<DestinationMetrics['snapshot']> | undefined {
    return this.metrics?.snapshot(this.now());
  }

  /** Back-offs on now (for tests and metrics). */
  standings(): DestinationStanding[] {
    const now = this.now();
    return this.backoff.standings().filter((s) => s.until > now);
  }

  /** Resolves once the back-off table is on disk. */
  async flushed(): Promise<void> {
    this.metrics?.tick(this.now());
    await Promise.all([this.store?.flushed(), this.metrics?.flushed()]);
  }

  stop(): void {
    this.gate.stop();
    this.metrics?.stop();
  }
}
