import type { EmailStatus } from '../../db/schema';
import type { BounceExplanation } from './bounce-explanation';
import { explainBounce } from './bounce-explanation';
import { explainDeferral } from './deferral-explanation';
import type { PendingSend } from './pending-send.repository';
import { EMAIL_SEND_STAGED_QUEUE } from './send-job';

/**
 * Where a message is on its way, as the dashboard's "why is this still queued?" shows it:
 * - `scheduled`: waiting for its scheduledAt;
 * - `queued`: waiting for the worker to hand it to our MTA;
 * - `retrying`: our MTA could not take it; the worker retries (a slow retry once parked);
 * - `sending`: being handed over right now;
 * - `sent`: with our MTA, which has not yet heard back from the recipient's server;
 * - `deferred`: a recipient's server refused it for now; our MTA retries on a schedule;
 * - `done`: every recipient reached a final status.
 */
export type DeliveryState = 'scheduled' | 'queued' | 'retrying' | 'sending' | 'sent' | 'deferred' | 'done';

export interface DeliveryView {
  readonly state: DeliveryState;
  /** Hand-off attempts to our MTA; once deferred, the MTA's delivery attempts to the recipient. */
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastDeferral: { readonly at: string; readonly reply: string; readonly explanation: string } | null;
  /** The state in one sentence. */
  readonly summary: string;
  /** Each bounced recipient's last reply in plain words (bounce-explanation.ts). */
  readonly bounces: readonly BounceExplanation[];
}

/** What of the Email view this needs. */
export interface DeliveryFacts {
  readonly status: EmailStatus;
  readonly attempts: number;
  readonly scheduledAt: string | null;
  readonly mode: 'live' | 'test';
  readonly recipients: readonly {
    readonly email: string;
    readonly status: string;
    readonly smtpResponse: string | null;
  }[];
  readonly events: readonly {
    readonly type: string;
    readonly message: string | null;
    readonly createdAt: string;
  }[];
}

const FINAL = new Set(['delivered', 'bounced', 'complained', 'failed', 'cancelled']);
// outcome-job.ts eventMessageFor: a deferral's timeline message is `attempt N: <reply>`.
const DEFERRAL_MESSAGE = /^attempt (\d{1,4}): ([^]*)$/;

/**
 * The MTA retries a deferred recipient after MTA_RETRY_INTERVALS[N-1] seconds following
 * its Nth deferral (Haraka's temp_fail_intervals) and gives up after the last one.
 */
function mtaSchedule(lastAt: string, attempt: number, intervals: readonly number[]) {
  const rest = intervals.slice(attempt - 1);
  const last = Date.parse(lastAt);
  const next = rest[0];
  return {
    next: next === undefined ? null : new Date(last + next * 1000).toISOString(),
    giveUp: new Date(last + rest.reduce((a, b) => a + b, 0) * 1000).toISOString(),
  };
}

function deferred(
  facts: DeliveryFacts,
  intervals: readonly number[],
): Omit<DeliveryView, 'bounces'> | undefined {
  const last = facts.events.findLast((e) => e.type === 'deferred');
  const m = DEFERRAL_MESSAGE.exec(last?.message ?? '');
  if (!last || !m) return undefined;
  const attempt = Number(m[1]);
  const reply = m[2] ?? '';
  const held = heldView(reply, last.createdAt, attempt);
  if (held) return held;
  const { next, giveUp } = mtaSchedule(last.createdAt, attempt, intervals);
  const cause = explainDeferral(reply);
  const explanation =
    next === null
      ? `${cause} That was the last retry: the recipient is marked failed when the MTA gives up.`
      : `${cause} We retry automatically, next at ${next}, until ${giveUp}; then the recipient is marked failed.`;
  return {
    state: 'deferred',
    attempts: attempt,
    nextAttemptAt: next,
    lastDeferral: { at: last.createdAt, reply, explanation },
    summary: explanation,
  };
}

// The MTA's note for a message its per-destination pacing holds back without connecting
// (src/mta/destination-pacing.ts waitingText / atLimitText): not a refusal, and no retry spent.
const HOLD = /^waiting: destination (\S+) (?:is throttling us until (\d\d):(\d\d) UTC|at its limit)$/;

function heldView(reply: string, at: string, attempt: number): Omit<DeliveryView, 'bounces'> | undefined {
  const m = HOLD.exec(reply);
  if (!m) return undefined;
  const [, destination, hh, mm] = m;
  let next: string | null = null;
  let explanation = `Our mail server is sending to ${destination} as fast as its per-destination limits allow, and sends this message as soon as one of its slots is free. Waiting spends none of the retries.`;
  if (hh !== undefined && mm !== undefined) {
    // HH:MM is after the note was written: today's, or tomorrow's when that is earlier.
    const noted = Date.parse(at);
    const day = new Date(noted);
    let until = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), Number(hh), Number(mm));
    if (until < noted - 60_000) until += 24 * 3_600_000;
    next = new Date(until).toISOString();
    explanation = `${destination}, the recipient’s mail provider, asked us to slow down, so our mail server holds every message to it until ${next} and then tries again. Waiting spends none of the retries.`;
  }
  return {
    state: 'deferred',
    attempts: attempt,
    nextAttemptAt: next,
    lastDeferral: { at, reply, explanation },
    summary: explanation,
  };
}

/** The message's delivery state, from its view, its pending hand-off job and the MTA's retry schedule. */
export function deliveryView(
  facts: DeliveryFacts,
  pending: PendingSend | undefined,
  mtaRetryIntervals: readonly number[],
  now = Date.now(),
): DeliveryView {
  const bounces = facts.recipients
    .filter((r) => r.status === 'bounced' && r.smtpResponse !== null)
    .map((r) => explainBounce(r.email, r.smtpResponse ?? '', facts.mode));
  return { ...stateOf(facts, pending, mtaRetryIntervals, now), bounces };
}

function stateOf(
  facts: DeliveryFacts,
  pending: PendingSend | undefined,
  mtaRetryIntervals: readonly number[],
  now = Date.now(),
): Omit<DeliveryView, 'bounces'> {
  const base = { attempts: facts.attempts, nextAttemptAt: null, lastDeferral: null };
  if (facts.recipients.some((r) => r.status === 'deferred')) {
    const view = deferred(facts, mtaRetryIntervals);
    if (view) return view;
  }
  if (FINAL.has(facts.status) && facts.recipients.every((r) => FINAL.has(r.status)))
    return { ...base, state: 'done', summary: `Finished: ${facts.status}.` };
  if (facts.status === 'processing')
    return { ...base, state: 'sending', summary: 'Being handed to our mail server right now.' };
  if (facts.status === 'sent' || facts.status === 'deferred')
    return {
      ...base,
      state: 'sent',
      summary:
        'Handed to our mail server, which is delivering it and has not heard back from every recipient’s server yet.',
    };
  const runAt = pending?.runAt ?? null;
  if (facts.scheduledAt !== null && Date.parse(facts.scheduledAt) > now)
    return {
      ...base,
      state: 'scheduled',
      nextAttemptAt: facts.scheduledAt,
      summary: `Scheduled for ${facts.scheduledAt}.`,
    };
  if (pending && (pending.queue === EMAIL_SEND_STAGED_QUEUE || facts.attempts > 0))
    return {
      ...base,
      state: 'retrying',
      nextAttemptAt: runAt,
      summary:
        `Our own mail server (MTA) could not take the message after ${facts.attempts} attempt(s)` +
        `${pending.queue === EMAIL_SEND_STAGED_QUEUE ? ', so it was parked for a slow retry' : ''}; ` +
        `the next attempt is at ${runAt ?? 'once the worker runs'}. This is a problem on this server, not the recipient’s: the operator is alerted by the queue depth.`,
    };
  return {
    ...base,
    state: 'queued',
    nextAttemptAt: runAt,
    summary: 'Waiting for the worker to hand it to our mail server.',
  };
}
