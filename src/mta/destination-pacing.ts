import net from 'node:net';
import { getDomain } from 'tldts';
import { saysSlowDown } from '../mail/reply-classifier/throttling';

/**
 * Per-destination back-off of outbound delivery (issue 22, item 2), in the mta process's memory.
 *
 * Haraka schedules the retries of each message on its own timer and has no notion of a
 * destination (its maintainers say so): when a large provider answers "slow down", every queued
 * message to it would still connect and be refused again. Here a destination — the registrable
 * domain of the MX host a recipient domain resolves to, so gmail.com and googlemail.com are both
 * `google.com` — backs off as a whole: after a throttling reply (or refused connections) no message
 * to it connects until the back-off ends, while other destinations keep flowing.
 */

/** The destination of an MX host name: its registrable domain (Public Suffix List), or the host itself. */
export function destinationOf(mxHost: string): string {
  const host = mxHost.trim().toLowerCase().replace(/\.$/, '');
  if (net.isIP(host) !== 0) return host;
  return getDomain(host) ?? host;
}

/** What the remote said (or that it could not be reached), as the deferred hook sees it. */
export interface DeferralReply {
  readonly smtpCode: number | null;
  readonly enhancedStatus: string | null;
  readonly text: string;
}

/**
 * Whether a deferral says the DESTINATION wants us to slow down, not that one mailbox is busy:
 * 421 (RFC 5321 §4.2.3: the service is closing the channel), a 4.7.x (RFC 3463 security or policy
 * status) or 450 whose text the bounce classifier reads as throttling (one table:
 * src/mail/reply-classifier/throttling.ts), or no reply at all because every MX refused the connection
 * or timed out (Haraka's "Tried all MXs").
 */
export function isThrottling(reply: DeferralReply): boolean {
  if (reply.smtpCode === 421) return true;
  if (reply.smtpCode === null) return /^Tried all MXs/.test(reply.text.trim());
  const policy = reply.enhancedStatus?.startsWith('4.7.') === true || reply.smtpCode === 450;
  return reply.smtpCode >= 400 && reply.smtpCode < 500 && policy && saysSlowDown(reply.text);
}

export interface BackoffOptions {
  /** First back-off, before jitter (MTA_BACKOFF_BASE_S). */
  readonly baseMs: number;
  /** No back-off is longer than this (MTA_BACKOFF_MAX_S). */
  readonly capMs: number;
  /** [0, 1): the jitter source (tests pass a constant). */
  readonly random: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 60_000, capMs: 30 * 60_000, random: Math.random };

interface BackoffState {
  /** How many throttling episodes in a row (decays by one per delivery). */
  level: number;
  /** Epoch ms when connections may be made again. */
  until: number;
}

/** One destination's standing, for the hooks, the log and the timeline. */
export interface DestinationStanding {
  readonly destination: string;
  readonly level: number;
  /** Epoch ms; in the past once the back-off is over. */
  readonly until: number;
}

export class DestinationBackoff {
  private readonly states = new Map<string, BackoffState>();

  /** `changed` hears of every change of the table (the mta persists it: destination-backoff-file.ts). */
  constructor(
    private readonly options: BackoffOptions = DEFAULT_BACKOFF,
    private readonly changed: (standings: readonly DestinationStanding[]) => void = () => undefined,
  ) {}

  /**
   * The standings a previous run left (destination-backoff-file.ts). Only back-offs still on at
   * `now` are taken: a throttling provider is not hammered by a restart, and one whose back-off
   * ended while the mta was down is tried as usual.
   */
  restore(standings: readonly DestinationStanding[], now: number): number {
    let restored = 0;
    for (const s of standings) {
      if (s.until <= now || s.level < 1) continue;
      this.states.set(s.destination, { level: s.level, until: s.until });
      restored += 1;
    }
    return restored;
  }

  /**
   * A throttling reply from `destination` at `now`: the back-off starts (or, when it had
   * ended, grows). Replies that arrive while a back-off is on come from connections opened
   * before it began: they do not grow it again, so one burst counts as one episode.
   */
  throttled(destination: string, now: number): DestinationStanding {
    const state = this.states.get(destination) ?? { level: 0, until: 0 };
    if (state.until <= now) {
      state.level += 1;
      const exponential = this.options.baseMs * 2 ** Math.min(state.level - 1, 30);
      // ±25 % so that the messages of many senders to one provider do not return in step.
      const jittered = exponential * (0.75 + 0.5 * this.options.random());
      state.until = now + Math.round(Math.min(this.options.capMs, jittered));
      this.states.set(destination, state);
      this.changed(this.standings());
    }
    return { destination, level: state.level, until: state.until };
  }

  /**
   * A delivery to `destination`: resumes gradually. The level falls by one per delivery, so a
   * destination that throttles again soon after is backed off longer than the first time.
   */
  delivered(destination: string): void {
    const state = this.states.get(destination);
    if (state === undefined) return;
    state.level -= 1;
    if (state.level <= 0) this.states.delete(destination);
    this.changed(this.standings());
  }

  /** The back-off on at `now`, if any. */
  backedOff(destination: string, now: number): DestinationStanding | undefined {
    const state = this.states.get(destination);
    if (state === undefined || state.until <= now) return undefined;
    return { destination, level: state.level, until: state.until };
  }

  /** Every destination with a standing (for metrics and the file). */
  standings(): DestinationStanding[] {
    return [...this.states].map(([destination, s]) => ({ destination, level: s.level, until: s.until }));
  }
}

/**
 * When a message held by a back-off ending at `until` is tried again: up to a tenth of the wait
 * (1 s to 1 min) later, so the messages held together do not return together.
 */
export function heldRetryAt(until: number, now: number, random: () => number = Math.random): number {
  const spread = Math.min(60_000, Math.max(1_000, (until - now) / 10));
  return until + Math.round(random() * spread);
}

/** "until 17:45 UTC" for the timeline: the operator reads when the destination is tried again. */
export function waitingText(standing: DestinationStanding): string {
  const at = new Date(standing.until).toISOString().slice(11, 16);
  return `waiting: destination ${standing.destination} is throttling us until ${at} UTC`;
}

/** The timeline's note for a message held at its destination's concurrency or per-minute cap. */
export function atLimitText(destination: string): string {
  return `waiting: destination ${destination} at its limit`;
}
