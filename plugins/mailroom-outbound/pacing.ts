// Per-destination back-off in mailroom-outbound's hooks (issue 22, item 2; the table is
// src/mta/destination-pacing.ts):
// - get_mx (route.ts): the message's destination is noted; while it is backed off the message is
//   deferred without a connection (DENYSOFT: Haraka's temp_fail), and the deferred hook below
//   schedules it for the end of the back-off;
// - deferred: a throttling reply backs the destination off; every deferral to a backed-off
//   destination is retried when the back-off ends, not on the message's own timer;
// - delivered: the destination resumes gradually;
// - get_mx also holds a message back while its destination is at its concurrency or
//   per-minute cap (src/mta/destination-limits.ts), without recording or counting an attempt.
// MX delivery only: an SMTP_RELAY is the operator's own smarthost, Haraka's retries apply there.
import type { DestinationLimits } from '../../src/mta/destination-limits';
import { DEFAULT_LIMITS, DestinationGate, LIMITS_FILE, loadLimits } from '../../src/mta/destination-limits';
import { DestinationMetrics } from '../../src/mta/destination-metrics';
import type { DestinationStanding } from '../../src/mta/destination-pacing';
import {
  destinationBackoff,
  destinationOf,
  isThrottling,
  waitingText,
} from '../../src/mta/destination-pacing';
import { replyCode } from '../../src/mta/delivery-outcome';
import { mtaDataDir } from '../../src/mta/mta-runtime';
import type { HarakaHmail, HarakaPlugin, HarakaRecipient } from '../types';

/** The destination a message was routed to (todo.notes: read back by the outcome hooks). */
const DESTINATION_NOTE = 'mailroom_destination';
/** Set when get_mx held the message back: the back-off's end (epoch ms). */
const HELD_NOTE = 'mailroom_held_until';
/** Set when get_mx held the message back for the destination's caps: when to try again (epoch ms). */
const PACED_NOTE = 'mailroom_paced_until';
/** Set when get_mx let the delivery start: counted in flight until an outcome hook. */
const IN_FLIGHT_NOTE = 'mailroom_in_flight';

function noteOf(hmail: HarakaHmail, name: string): unknown {
  return hmail.todo?.notes[name];
}

let gate: DestinationGate | undefined;
let limits: DestinationLimits | undefined;

let metrics: DestinationMetrics | undefined;

/** The snapshot behind /metrics' per-destination gauges (src/mta/destination-metrics.ts). */
function destinationMetrics(plugin: HarakaPlugin): DestinationMetrics {
  metrics ??= new DestinationMetrics(
    mtaDataDir,
    () => ({
      inFlight: gate?.inFlightCounts() ?? new Map<string, number>(),
      backedOffUntil: new Map(destinationBackoff.standings().map((b) => [b.destination, b.until])),
    }),
    (err) =>
      plugin.logwarn('could not write the destination metrics snapshot', {
        event: 'mta_destination_metrics_failed',
        error: err instanceof Error ? err.message : String(err),
      }),
  );
  return metrics;
}

/**
 * The mta process's gate, its limits read once from DATA_DIR on the first delivery. A bad file
 * is logged and the built-in table applies: throwing here, inside get_mx's promise, would
 * exit Haraka.
 */
function destinationGate(plugin: HarakaPlugin): DestinationGate {
  gate ??= new DestinationGate(() => {
    if (limits !== undefined) return limits;
    try {
      limits = loadLimits(mtaDataDir());
    } catch (err) {
      limits = DEFAULT_LIMITS;
      plugin.logerror(`${LIMITS_FILE} is invalid: the built-in destination limits apply`, {
        event: 'mta_destination_limits_invalid',
        error: err instanceof Error ? err.message : String(err),
      });
    }
    return limits;
  });
  return gate;
}

/**
 * In get_mx, once the MX targets are known: notes the destination and answers whether the
 * message is held back — by a back-off (recorded as a deferral: the timeline says until when)
 * or by the destination's caps (not recorded, and not counted as an attempt: pacing is ours,
 * not the remote's refusal).
 */
export function holdBack(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  domain: string,
  mxHost: string | undefined,
): boolean {
  if (!hmail.todo) return false;
  const notes = hmail.todo.notes;
  const destination = destinationOf(mxHost ?? domain);
  notes[DESTINATION_NOTE] = destination;
  const now = Date.now();
  const held = destinationBackoff.backedOff(destination, now);
  if (held !== undefined) {
    notes[HELD_NOTE] = held.until;
    hmail.loginfo(plugin, `held back: ${waitingText(held)}`, {
      event: 'mta_destination_held',
      domain,
      destination,
      until: new Date(held.until).toISOString(),
    });
    return true;
  }
  const admitted = destinationGate(plugin).tryStart(destination, now);
  if ('started' in admitted) {
    notes[IN_FLIGHT_NOTE] = true;
    destinationMetrics(plugin).changed();
    return false;
  }
  notes[PACED_NOTE] = admitted.retryAt;
  // temp_fail() counts the DENYSOFT as a failure; this one is not the remote's.
  (hmail as { num_failures: number }).num_failures -= 1;
  hmail.loginfo(plugin, `paced: ${destination} is at its concurrency or per-minute cap`, {
    event: 'mta_destination_paced',
    domain,
    destination,
    retryAt: new Date(admitted.retryAt).toISOString(),
  });
  return true;
}

/** In an outcome hook: the delivery get_mx let through is over. */
export function deliveryFinished(hmail: HarakaHmail): void {
  const notes = hmail.todo?.notes;
  const destination = notes?.[DESTINATION_NOTE];
  if (notes?.[IN_FLIGHT_NOTE] !== true || typeof destination !== 'string') return;
  Reflect.deleteProperty(notes, IN_FLIGHT_NOTE);
  gate?.finished(destination);
  metrics?.changed();
}

/**
 * In the deferred hook: the retry time of a message held by the caps, which is not recorded
 * (undefined for every other deferral).
 */
export function pacedRetry(hmail: HarakaHmail): number | undefined {
  const notes = hmail.todo?.notes;
  const retryAt = notes?.[PACED_NOTE];
  if (notes === undefined || typeof retryAt !== 'number') return undefined;
  Reflect.deleteProperty(notes, PACED_NOTE);
  return Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
}

/** What the deferred hook records and answers for a deferral. */
export interface PacedDeferral {
  /** The timeline's text when get_mx held the message back; undefined keeps Haraka's reason. */
  readonly heldText?: string | undefined;
  /** Seconds until the retry when a back-off is on and longer than Haraka's interval. */
  readonly retryInSeconds?: number | undefined;
}

/** In the deferred hook: the back-off this deferral starts or falls under. */
export function pacedDeferral(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  params: {
    readonly delay?: unknown;
    readonly err?: unknown;
    readonly fail_recips?: readonly HarakaRecipient[];
  },
  errorText: string,
): PacedDeferral {
  const destination = noteOf(hmail, DESTINATION_NOTE);
  if (typeof destination !== 'string' || !hmail.todo) return {};
  const now = Date.now();
  destinationMetrics(plugin).deferred(destination, now);
  const heldUntil = noteOf(hmail, HELD_NOTE);
  Reflect.deleteProperty(hmail.todo.notes, HELD_NOTE);
  let standing: DestinationStanding | undefined;
  let heldText: string | undefined;
  if (typeof heldUntil === 'number') {
    standing = destinationBackoff.backedOff(destination, now) ?? {
      destination,
      level: 0,
      until: heldUntil,
    };
    heldText = waitingText(standing);
  } else {
    const first = (params.fail_recips ?? hmail.todo.rcpt_to)[0];
    const smtpCode = replyCode(first?.dsn_smtp_code);
    const reply = {
      smtpCode,
      enhancedStatus: first?.dsn_smtp_extc ?? null,
      // Without a reply from the remote, Haraka's own reason ("Tried all MXs") is what happened.
      text: smtpCode === null ? errorText : (first?.dsn_smtp_response ?? errorText),
    };
    if (isThrottling(reply)) {
      standing = destinationBackoff.throttled(destination, now);
      hmail.logwarn(plugin, `destination ${destination} is throttling: backed off`, {
        event: 'mta_destination_backoff',
        destination,
        level: standing.level,
        until: new Date(standing.until).toISOString(),
        reply: errorText,
      });
    } else {
      standing = destinationBackoff.backedOff(destination, now);
    }
  }
  if (standing === undefined) return { heldText };
  const seconds = Math.ceil((standing.until - now) / 1000);
  const interval = typeof params.delay === 'number' ? params.delay : 0;
  return { heldText, retryInSeconds: seconds > interval ? seconds : undefined };
}

/** In the delivered hook: the destination answers again. */
export function destinationDelivered(hmail: HarakaHmail): void {
  deliveryFinished(hmail);
  const destination = noteOf(hmail, DESTINATION_NOTE);
  if (typeof destination === 'string') destinationBackoff.delivered(destination);
}
