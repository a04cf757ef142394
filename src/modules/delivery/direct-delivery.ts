/**
 * Outbound delivery by the worker's own sender (issue 31, OUTBOUND_SENDER=worker): the job table
 * is the only queue. An attempt signs the message, delivers it to the recipients' servers and
 * records what each server said in the one transaction that records the hand-over, through the
 * same code that applies the MTA's delivery reports (applyMtaOutcomeIn): the timeline reads
 * processing → sent → delivered (or deferred, bounced, failed) as it does for the Haraka path.
 * A deferred recipient is retried by an `email-send` job of its own at MTA_RETRY_INTERVALS,
 * enqueued in that same transaction; a deferral after the last interval is `failed`.
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
>;

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

/** The retry of a message's deferred recipients after delivery attempt `deliveries`. */
export function deferredRetryJob(
  emailId: string,
  deliveries: number,
  intervalsS: readonly number[],
  now: Date = new Date(),
): (EnqueueInput & { readonly runAt: Date }) | undefined {
  const waitS = intervalsS[deliveries - 1];
  if (waitS === undefined) return undefined;
  return {
    queue: 'email-send',
    payload: { emailId, deferred: deliveries },
    runAt: new Date(now.getTime() + waitS * 1000),
    // Only the database failing fails the job itself: the remote's answers are outcomes.
    maxAttempts: 5,
    dedupeKey: `${emailId}:deferred:${deliveries}`,
  };
}

export interface Recorded {
  readonly applied: readonly { readonly payload: MtaOutcomePayload; readonly result: OutcomeApplied }[];
}

/**
 * Records the remote servers' answers of delivery attempt `deliveries` inside `trx`: each
 * recipient's outcome, a deferral past the last interval as `failed`, and the retry of what
 * was deferred.
 */
export async function recordOutcomes(
  trx: Transaction<Database> | Kysely<Database>,
  email: Pick<EmailForSend, 'id'>,
  outcomes: readonly RecipientOutcome[],
  deliveries: number,
  deps: Pick<DirectDeps, 'retryIntervalsS'> & { readonly node?: string | undefined },
): Promise<Recorded> {
  const at = isoNow();
  const retry = deferredRetryJob(email.id, deliveries, deps.retryIntervalsS);
  const applied: { payload: MtaOutcomePayload; result: OutcomeApplied }[] = [];
  for (const o of outcomes) {
    const exhausted = o.outcome === 'deferred' && retry === undefined;
    const payload: MtaOutcomePayload = {
      emailId: email.id,
      ...o,
      outcome: exhausted ? 'failed' : o.outcome,
      response: exhausted ? `retries exhausted after ${deliveries} attempts: ${o.response}` : o.response,
      attempt: deliveries,
      at,
      node: deps.node ?? null,
    };
    applied.push({ payload, result: await applyMtaOutcomeIn(trx, payload, { acceptBeforeSent: true }) });
  }
  if (retry !== undefined && outcomes.some((o) => o.outcome === 'deferred')) await enqueue(trx, retry);
  return { applied };
}

/** The log lines of recorded outcomes (after the commit: a line never names an uncommitted state). */
export function logOutcomes(log: Logger, recorded: Recorded): void {
  for (const { payload, result } of recorded.applied) logApplied(log, payload, result);
}
