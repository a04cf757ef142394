// Per-destination pacing in mailroom-outbound's hooks (issue 22, item 2; the parts are
// src/mta/destination-*.ts). One notion, "held": get_mx holds a message back without connecting
// while its destination is backed off (it throttled us) or at its concurrency or per-minute cap.
// - get_mx (route.ts → holdBack): the message's destination is noted; a held message is answered
//   DENYSOFT, and its num_failures is given back: a hold is no delivery attempt and spends none of
//   the MTA_RETRY_INTERVALS budget (before, a back-off hold spent one, a cap hold did not);
// - deferred (pacedDeferral): a held message is retried when its destination opens — the
//   back-off's end, or when a cap slot may be free — jittered, never on Haraka's interval; the
//   timeline gets one "waiting: …" note per hold period, not one per re-check. A remote deferral
//   with a throttling reply backs the destination off; every deferral to a backed-off destination
//   is retried when the back-off ends, not on the message's own timer;
// - delivered: the destination resumes gradually.
// MX delivery only: an SMTP_RELAY is the operator's own smarthost, Haraka's retries apply there.
import path from 'node:path';
import type { DestinationLimits } from '../../src/mta/destination-limits';
import { DEFAULT_LIMITS, DestinationGate, LIMITS_FILE, loadLimits } from '../../src/mta/destination-limits';
import { BACKOFF_FILE, backoffFileText, parseBackoffFile } from '../../src/mta/destination-backoff-file';
import { DestinationMetrics } from '../../src/mta/destination-metrics';
import {
  atLimitText,
  DEFAULT_BACKOFF,
  DestinationBackoff,
  destinationOf,
  heldRetryAt,
  isThrottling,
  waitingText,
} from '../../src/mta/destination-pacing';
import { readStateFile, StateFile } from '../../src/mta/destination-state-file';
import { replyCode } from '../../src/mta/delivery-outcome';
import { mtaBackoffBounds, mtaDataDir } from '../../src/mta/mta-runtime';
import type { HarakaHmail, HarakaPlugin, HarakaRecipient } from '../types';

/** The destination a message was routed to (todo.notes: read back by the outcome hooks). */
const DESTINATION_NOTE = 'mailroom_destination';
/** Set when get_mx held the message back (a Hold). */
const HOLD_NOTE = 'mailroom_hold';
/** The hold period whose note the timeline has; cleared when a delivery starts. */
const HOLD_PERIOD_NOTE = 'mailroom_hold_period';
/** Set when get_mx let the delivery start: counted in flight until an outcome hook. */
const IN_FLIGHT_NOTE = 'mailroom_in_flight';

interface Hold {
  /** Epoch ms of the retry. */
  readonly retryAt: number;
  /** The timeline's note. */
  readonly text: string;
  /** Same period, same note: a back-off episode (by its end), or being at the caps. */
  readonly period: string;
}

interface Pacing {
  readonly gate: DestinationGate;
  readonly backoff: DestinationBackoff;
  readonly metrics: DestinationMetrics;
}

let pacing: Pacing | undefined;

function warn(plugin: HarakaPlugin, message: string, event: string) {
  return (err: unknown) =>
    plugin.logwarn(message, { event, error: err instanceof Error ? err.message : String(err) });
}

/**
 * The mta process's pacing, built on first use (at start, or the first delivery): the limits
 * read once from DATA_DIR, the back-offs a previous run left restored. A bad limits file is
 * logged and the built-in table applies: throwing inside get_mx's promise would exit Haraka.
 */
export function pacingOf(plugin: HarakaPlugin): Pacing {
  if (pacing !== undefined) return pacing;
  let limits: DestinationLimits | undefined;
  const gate = new DestinationGate(() => {
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
  const file = path.join(mtaDataDir(), BACKOFF_FILE);
  const store = new StateFile(
    () => file,
    warn(plugin, `could not write ${BACKOFF_FILE}`, 'mta_destination_backoff_save_failed'),
  );
  const backoff = new DestinationBackoff({ ...DEFAULT_BACKOFF, ...mtaBackoffBounds() }, (standings) =>
    store.write(backoffFileText(standings)),
  );
  const restored = backoff.restore(parseBackoffFile(readStateFile(file) ?? ''), Date.now());
  if (restored > 0) {
    plugin.loginfo(`${restored} destination back-off(s) restored from ${BACKOFF_FILE}`, {
      event: 'mta_destination_backoff_restored',
      destinations: backoff.standings().map((s) => s.destination),
    });
  }
  const metrics = new DestinationMetrics(
    mtaDataDir,
    () => ({
      inFlight: gate.inFlightCounts(),
      backedOffUntil: new Map(backoff.standings().map((b) => [b.destination, b.until])),
    }),
    warn(plugin, 'could not write the destination metrics snapshot', 'mta_destination_metrics_failed'),
  );
  metrics.start();
  pacing = { gate, backoff, metrics };
  return pacing;
}

function holdFor(p: Pacing, destination: string, now: number): Hold | undefined {
  const backedOff = p.backoff.backedOff(destination, now);
  if (backedOff !== undefined) {
    return {
      retryAt: heldRetryAt(backedOff.until, now),
      text: waitingText(backedOff),
      period: `backoff ${backedOff.until}`,
    };
  }
  const admitted = p.gate.tryStart(destination);
  if ('started' in admitted) return undefined;
  return { retryAt: admitted.retryAt, text: atLimitText(destination), period: 'cap' };
}

/**
 * In get_mx, once the MX targets are known: notes the destination and answers whether the
 * message is held back (see the top of this file); a message let through is counted in flight.
 */
export function holdBack(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  domain: string,
  mxHost: string | undefined,
): boolean {
  if (!hmail.todo) return false;
  const p = pacingOf(plugin);
  const notes = hmail.todo.notes;
  const destination = destinationOf(mxHost ?? domain);
  notes[DESTINATION_NOTE] = destination;
  const now = Date.now();
  const hold = holdFor(p, destination, now);
  if (hold === undefined) {
    notes[IN_FLIGHT_NOTE] = true;
    Reflect.deleteProperty(notes, HOLD_PERIOD_NOTE);
    return false;
  }
  notes[HOLD_NOTE] = hold;
  // temp_fail() counts the DENYSOFT route.ts answers as a failed attempt: a hold is none.
  (hmail as { num_failures: number }).num_failures -= 1;
  hmail.loginfo(plugin, `held back: ${hold.text}`, {
    event: 'mta_destination_held',
    domain,
    destination,
    retryAt: new Date(hold.retryAt).toISOString(),
  });
  return true;
}

/** In an outcome hook: the delivery get_mx let through is over. */
export function deliveryFinished(hmail: HarakaHmail): void {
  const notes = hmail.todo?.notes;
  const destination = notes?.[DESTINATION_NOTE];
  if (notes?.[IN_FLIGHT_NOTE] !== true || typeof destination !== 'string') return;
  Reflect.deleteProperty(notes, IN_FLIGHT_NOTE);
  pacing?.gate.finished(destination);
}

/** What the deferred hook records and answers for a deferral. */
export interface PacedDeferral {
  /** False for a hold whose period the timeline already shows: nothing is recorded. */
  readonly record: boolean;
  /** The timeline's text for a hold; undefined keeps Haraka's reason. */
  readonly heldText?: string | undefined;
  /** Seconds until the retry, when ours and not Haraka's interval (a hold, a back-off). */
  readonly retryInSeconds?: number | undefined;
}

function seconds(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** In the deferred hook: the hold this deferral is, or the back-off it starts or falls under. */
export function pacedDeferral(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  params: { readonly delay?: unknown; readonly fail_recips?: readonly HarakaRecipient[] },
  errorText: string,
): PacedDeferral {
  const notes = hmail.todo?.notes;
  const destination = notes?.[DESTINATION_NOTE];
  if (typeof destination !== 'string' || !hmail.todo || notes === undefined || pacing === undefined)
    return { record: true };
  const now = Date.now();
  const hold = notes[HOLD_NOTE] as Hold | undefined;
  if (hold !== undefined) {
    Reflect.deleteProperty(notes, HOLD_NOTE);
    const record = notes[HOLD_PERIOD_NOTE] !== hold.period;
    notes[HOLD_PERIOD_NOTE] = hold.period;
    if (record) pacing.metrics.deferred(destination, now);
    return { record, heldText: hold.text, retryInSeconds: seconds(hold.retryAt, now) };
  }
  pacing.metrics.deferred(destination, now);
  const first = (params.fail_recips ?? hmail.todo.rcpt_to)[0];
  const smtpCode = replyCode(first?.dsn_smtp_code);
  const reply = {
    smtpCode,
    enhancedStatus: first?.dsn_smtp_extc ?? null,
    // Without a reply from the remote, Haraka's own reason ("Tried all MXs") is what happened.
    text: smtpCode === null ? errorText : (first?.dsn_smtp_response ?? errorText),
  };
  let standing = pacing.backoff.backedOff(destination, now);
  if (isThrottling(reply)) {
    standing = pacing.backoff.throttled(destination, now);
    hmail.logwarn(plugin, `destination ${destination} is throttling: backed off`, {
      event: 'mta_destination_backoff',
      destination,
      level: standing.level,
      until: new Date(standing.until).toISOString(),
      reply: errorText,
    });
  }
  if (standing === undefined) return { record: true };
  const wait = seconds(heldRetryAt(standing.until, now), now);
  const interval = typeof params.delay === 'number' ? params.delay : 0;
  return { record: true, retryInSeconds: wait > interval ? wait : undefined };
}

/** In the delivered hook: the destination answers again. */
export function destinationDelivered(hmail: HarakaHmail): void {
  deliveryFinished(hmail);
  const destination = hmail.todo?.notes[DESTINATION_NOTE];
  if (typeof destination === 'string') pacing?.backoff.delivered(destination);
}
