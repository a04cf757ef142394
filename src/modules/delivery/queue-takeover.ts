/**
 * Mail an old Haraka outbound queue still held when a node starts with OUTBOUND_SENDER=worker
 * (issue 31 item 7): each message's queue files become one `email-send` job for the worker's
 * sender, to the recipients they hold that are still waiting for it (`sent`: handed to Haraka, no attempt reported
 * yet; `deferred`: Haraka's last attempt was put off). Reading and removing the files is the
 * MTA's side (src/mta/outbound-queue-import.ts); this is the commit that must come first.
 */
import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../../db/schema';
import type { EnqueueInput } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import { isoNow } from '../../shared/clock';
import * as repo from './delivery.repository';
import type { EmailSendPayload } from './send-job';
import { EMAIL_SEND_QUEUE } from './send-job';

/** A message's files in the queue, as the MTA's side read them. */
export interface QueuedDelivery {
  readonly emailId: string;
  /** The return path's domain (`bounce.<domain>` without `bounce.`): it must be the message's. */
  readonly senderDomain: string;
  /** The envelope recipients the files still hold (a recipient may stand in two: see below). */
  readonly recipients: readonly string[];
  /** Delivery attempts behind them (Haraka's count of deferrals in a file's name; the most of any file). */
  readonly attempts: number;
  /** When Haraka would have tried next (the earliest file): the job is due then, or now when that has passed. */
  readonly nextAttempt: Date;
}

export type Takeover =
  /** The job for `recipients` is in the table (`created` false: an earlier run put it there). */
  | {
      readonly kind: 'enqueued';
      readonly recipients: readonly string[];
      readonly created: boolean;
      /** Every recipient of the message, lower-case: a file naming none of them is not its. */
      readonly known: ReadonlySet<string>;
    }
  /** Every recipient the files hold has ended (Haraka reported it and was stopped before removing the file). */
  | { readonly kind: 'ended'; readonly known: ReadonlySet<string> }
  /** Not one of our messages, or none of its recipients: the files are set aside, never sent. */
  | { readonly kind: 'unmatched'; readonly reason: string };

/** The recipient states a Haraka queue file can still be responsible for. */
const HELD_BY_QUEUE: readonly EmailStatus[] = ['sent', 'deferred'];

/**
 * The job that delivers a message's queued recipients (a retry of `attempts`, send-job.ts). One
 * per message, whatever the number of its files: Haraka splits a file when some recipients are
 * put off (outbound/hmail.js split_to_new_recipients) and removes the original only after its
 * `delivered` hook, so a kill can leave one recipient in two files. The key (the message and its
 * hand-off to Haraka, `emails.attempts`) makes a second import of the same files (a kill before
 * they were removed) a no-op, and leaves a later hand-off's files a key of their own.
 */
export function takenOverJob(
  q: QueuedDelivery,
  handOff: number,
  recipients: readonly string[],
  now: Date,
): EnqueueInput {
  const payload: EmailSendPayload = { emailId: q.emailId, deferred: q.attempts, recipients };
  return {
    queue: EMAIL_SEND_QUEUE,
    payload,
    runAt: q.nextAttempt > now ? q.nextAttempt : now,
    // As a retry of deferred recipients: only the database failing fails the job itself.
    maxAttempts: 5,
    dedupeKey: `${q.emailId}:haraka-queue:${handOff}`,
  };
}

/**
 * In the caller's transaction: the job for the files' waiting recipients, and the message no
 * longer held by a node's queue (emails.mta_node cleared, so a later hand-back sweep does not
 * send it a second time; the job table holds it now).
 */
export async function takeOverQueuedDelivery(
  trx: Kysely<Database>,
  q: QueuedDelivery,
  now: Date = new Date(),
): Promise<Takeover> {
  const email = await repo.findEmailForSend(trx, q.emailId);
  if (!email) return { kind: 'unmatched', reason: 'no such message' };
  if (email.domain_name.toLowerCase() !== q.senderDomain.toLowerCase())
    return { kind: 'unmatched', reason: `return path of ${q.senderDomain}, message of another domain` };
  const listed = new Set(q.recipients.map((a) => a.toLowerCase()));
  const all = await repo.listRecipients(trx, q.emailId);
  const known = new Set(all.map((r) => r.address.toLowerCase()));
  const rows = all.filter((r) => listed.has(r.address.toLowerCase()));
  if (rows.length === 0) return { kind: 'unmatched', reason: 'none of its recipients is one of the message' };
  // `queued`/`processing`: a hand-back gave them to the job table already; ended: reported.
  const waiting = rows.filter((r) => HELD_BY_QUEUE.includes(r.status)).map((r) => r.address);
  if (waiting.length === 0) return { kind: 'ended', known };
  const { created } = await enqueue(trx, takenOverJob(q, email.attempts, waiting, now));
  if (email.mta_node !== null)
    await repo.updateEmail(trx, email.id, { status: email.status, mtaNode: null }, isoNow(), {
      status: email.status,
      attempts: email.attempts,
    });
  return { kind: 'enqueued', recipients: waiting, created, known };
}
