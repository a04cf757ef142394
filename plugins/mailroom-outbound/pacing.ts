// Per-destination back-off in mailroom-outbound's hooks (issue 22, item 2; the table is
// src/mta/destination-pacing.ts):
// - get_mx (route.ts): the message's destination is noted; while it is backed off the message is
//   deferred without a connection (DENYSOFT: Haraka's temp_fail), and the deferred hook below
//   schedules it for the end of the back-off;
// - deferred: a throttling reply backs the destination off; every deferral to a backed-off
//   destination is retried when the back-off ends, not on the message's own timer;
// - delivered: the destination resumes gradually.
// MX delivery only: an SMTP_RELAY is the operator's own smarthost, Haraka's retries apply there.
import type { DestinationStanding } from '../../src/mta/destination-pacing';
import {
  destinationBackoff,
  destinationOf,
  isThrottling,
  waitingText,
} from '../../src/mta/destination-pacing';
import { replyCode } from '../../src/mta/delivery-outcome';
import type { HarakaHmail, HarakaPlugin, HarakaRecipient } from '../types';

/** The destination a message was routed to (todo.notes: read back by the outcome hooks). */
const DESTINATION_NOTE = 'mailroom_destination';
/** Set when get_mx held the message back: the back-off's end (epoch ms). */
const HELD_NOTE = 'mailroom_held_until';

function noteOf(hmail: HarakaHmail, name: string): unknown {
  return hmail.todo?.notes[name];
}

/**
 * In get_mx, once the MX targets are known: notes the destination and answers the
 * back-off that holds the message back, if one is on.
 */
export function holdForBackoff(
  plugin: HarakaPlugin,
  hmail: HarakaHmail,
  domain: string,
  mxHost: string | undefined,
): DestinationStanding | undefined {
  if (!hmail.todo) return undefined;
  const destination = destinationOf(mxHost ?? domain);
  hmail.todo.notes[DESTINATION_NOTE] = destination;
  const held = destinationBackoff.backedOff(destination, Date.now());
  if (held === undefined) return undefined;
  hmail.todo.notes[HELD_NOTE] = held.until;
  hmail.loginfo(plugin, `held back: ${waitingText(held)}`, {
    event: 'mta_destination_held',
    domain,
    destination,
    until: new Date(held.until).toISOString(),
  });
  return held;
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
  const destination = noteOf(hmail, DESTINATION_NOTE);
  if (typeof destination === 'string') destinationBackoff.delivered(destination);
}
