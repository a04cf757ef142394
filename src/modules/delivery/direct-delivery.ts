/**
 * Outbound delivery by the worker's own sender (issue 31, OUTBOUND_SENDER=worker): the job table
 * is the only queue. An attempt signs the message, delivers it to the recipients' servers and
 * records what each server said in the one transaction that records the hand-over, through the
 * same code that applies the MTA's delivery reports (applyMtaOutcomeIn): the timeline reads
 * processing → sent → delivered (or deferred, bounced, failed) as it does for the Haraka path.
 * A deferred recipient is retried by an `email-send` job of its own at MTA_RETRY_INTERVALS,
 * enqueued in that same transaction; a deferral after the last interval is `failed`.
 *
 * Pacing (src/sender/pacing.ts): a recipient whose destination is held got no attempt. It is
 * recorded `deferred` with the sender's `waiting: …` note (once per hold period: a repeated
 * note is recognised by its timeline entry), and tried again when the destination opens by a
 * job of its own that carries the same delivery count, so a hold spends none of the retries.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { EnqueueInput } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { EmailForSend } from './delivery.repository';
import type { MtaOutcomePayload } from './mta-outcome';
import type { OutcomeApplied } from './outcome-job';
import { applyMtaOutcomeIn, logApplied } from './outcome-job';

/** What one remote server said of one recipient (src/sender/deliver.ts RecipientResult). */
export type RecipientOutcome = Pick<
  MtaOutcomePayload,
  'recipient' | 'outcome' | 'smtpCode' | 'enhancedStatus' | 'response' | 'host' | 'tls'
> & {
  /** Held by its destination's pacing: not attempted; to be tried at `retryAt` (epoch ms). */
  readonly held?: { readonly destination: string; readonly retryAt: number } | undefined;
  /** Deferred while its destination is backed off: its retry waits at least until then (epoch ms). */
  readonly retryNotBefore?: number | undefined;
};

/** The worker's sender, as the delivery module sees it (src/sender/outbound-sender.ts). */
export interface DirectSender {
  /** One outcome per recipient of `to`, in order; never rejects. */
  send(message: {
    readonly from: string;
    readonly to: readonly string[];
    readonly message: Buffer;
  }): Promise<RecipientOutcome[]>;
}

export interface DirectDeps {
  readonly sender: DirectSender;
  /** Adds the DKIM-Signature (the domain's key); throws when the message cannot be signed. */
  readonly sign: (email: Pick<EmailForSend, 'id' | 'domain_name'>, raw: Buffer) => Promise<Buffer>;
  /** MTA_RETRY_INTERVALS, seconds: the wait before delivery attempt N + 1 is the Nth. */
  readonly retryIntervalsS: readonly number[];
}

/** The `sent` entry's text: the hand-over is ours, the servers' replies follow in their own entries. */
export const HANDED_OVER = "signed and handed to the recipients' mail servers by the worker's sender";

/** Who enqueues a retry: the job recording the outcomes (its id keeps the retry's dedupe key unique). */
export interface RetryProducer {
  readonly jobId: string;
}

/**
 * The retry of `recipients`, deferred by delivery attempt `deliveries`, after its interval (or
 * `notBefore`, when later: the end of their destination's back-off). Undefined past the last
 * interval. The dedupe key names the producing job: a re-run of it enqueues nothing new, and two
 * jobs of one message (a held group's and the others') never share a key.
 */
export function deferredRetryJob(
  emailId: string,
  deliveries: number,
  intervalsS: readonly number[],
  recipients: readonly string[],
  producer: RetryProducer,
  now: Date = new Date(),
  notBefore?: number,
): (EnqueueInput & { readonly runAt: Date }) | undefined {
  const waitS = intervalsS[deliveries - 1];
  if (waitS === undefined) return undefined;
  const at = Math.max(now.getTime() + waitS * 1000, notBefore ?? 0);
  return {
    queue: 'email-send',
    payload: { emailId, deferred: deliveries, recipients: [...recipients] },
    runAt: new Date(at),
    // Only the database failing fails the job itself: the remote's answers are outcomes.
    maxAttempts: 5,
    dedupeKey: `${emailId}:deferred:${deliveries}:${producer.jobId}`,
  };
}

/**
 * The job that tries `recipients` again when their destination opens: the same delivery count
 * (`deliveries` made so far, 0 before the first), so the hold spends no attempt.
 */
export function heldRetryJob(
  emailId: string,
  deliveries: number,
  recipients: readonly string[],
  hold: { readonly destination: string; readonly retryAt: number },
  producer: RetryProducer,
): EnqueueInput & { readonly runAt: Date } {
  return {
    queue: 'email-send',
    payload: { emailId, deferred: deliveries, recipients: [...recipients] },
    runAt: new Date(hold.retryAt),
    maxAttempts: 5,
    dedupeKey: `${emailId}:held:${hold.destination}:${producer.jobId}`,
  };
}

export interface Recorded {
  readonly applied: readonly { readonly payload: MtaOutcomePayload; readonly result: OutcomeApplied }[];
}

/**
 * Records the remote servers' answers of delivery attempt `deliveries` inside `trx`: each
 * recipient's outcome, a deferral past the last interval as `failed`, and the retry of what
 * was deferred; held recipients as held (not attempt `deliveries` spent), with the job that
 * tries them when their destination opens.
 */
export async function recordOutcomes(
  trx: Transaction<Database> | Kysely<Database>,
  email: Pick<EmailForSend, 'id'>,
  outcomes: readonly RecipientOutcome[],
  deliveries: number,
  deps: Pick<DirectDeps, 'retryIntervalsS'> & { readonly node?: string | undefined } & RetryProducer,
  /** False when the caller releases its job to run again instead (allHeld): no new job for the held. */
  heldJobs = true,
): Promise<Recorded> {
  const at = isoNow();
  const now = new Date();
  const deferred = outcomes.filter((o) => o.outcome === 'deferred' && o.held === undefined);
  const notBefore = Math.max(0, ...deferred.map((o) => o.retryNotBefore ?? 0));
  const retry = deferredRetryJob(
    email.id,
    deliveries,
    deps.retryIntervalsS,
    deferred.map((o) => o.recipient),
    deps,
    now,
    notBefore,
  );
  const applied: { payload: MtaOutcomePayload; result: OutcomeApplied }[] = [];
  for (const o of outcomes) {
    const exhausted = o.outcome === 'deferred' && o.held === undefined && retry === undefined;
    const payload: MtaOutcomePayload = {
      emailId: email.id,
      recipient: o.recipient,
      smtpCode: o.smtpCode,
      enhancedStatus: o.enhancedStatus,
      host: o.host,
      tls: o.tls,
      outcome: exhausted ? 'failed' : o.outcome,
      response: exhausted ? `retries exhausted after ${deliveries} attempts: ${o.response}` : o.response,
      attempt: deliveries,
      at,
      node: deps.node ?? null,
    };
    applied.push({
      payload,
      result: await applyMtaOutcomeIn(trx, payload, { acceptBeforeSent: true, reporterHoldsQueue: false }),
    });
  }
  if (retry !== undefined && deferred.length > 0) await enqueue(trx, retry);
  for (const [destination, group] of heldJobs ? heldGroups(outcomes) : []) {
    const retryAt = Math.max(...group.map((o) => o.held.retryAt));
    const recipients = group.map((o) => o.recipient);
    await enqueue(trx, heldRetryJob(email.id, deliveries - 1, recipients, { destination, retryAt }, deps));
  }
  return { applied };
}

type HeldOutcome = RecipientOutcome & { readonly held: NonNullable<RecipientOutcome['held']> };

/** The held recipients by destination (a message has at most the spec's 50 recipients). */
function heldGroups(outcomes: readonly RecipientOutcome[]): Map<string, HeldOutcome[]> {
  const groups = new Map<string, HeldOutcome[]>();
  for (const o of outcomes) {
    if (o.held === undefined) continue;
    const group = groups.get(o.held.destination) ?? [];
    group.push(o as HeldOutcome);
    groups.set(o.held.destination, group);
  }
  return groups;
}

/**
 * A job all of whose recipients were held: the hold notes (each recorded once per hold period),
 * and when to run the job again, for the caller to release it (src/jobs/release.ts) rather than
 * complete it. Undefined when something was attempted: the outcomes are then recorded as usual.
 */
export function allHeld(outcomes: readonly RecipientOutcome[]): Date | undefined {
  if (outcomes.length === 0 || outcomes.some((o) => o.held === undefined)) return undefined;
  return new Date(Math.min(...outcomes.map((o) => o.held?.retryAt ?? 0)));
}

/** The log lines of recorded outcomes (after the commit: a line never names an uncommitted state). */
export function logOutcomes(log: Logger, recorded: Recorded): void {
  for (const { payload, result } of recorded.applied) logApplied(log, payload, result);
}
