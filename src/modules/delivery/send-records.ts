import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { aggregate } from './delivery-status';
import type { EmailRow } from '../emails';
import * as repo from './delivery.repository';
import { recordEmailEvent } from '../emails';
import { recordOutbox } from '../webhooks';
import type { HandOffAccepted, RejectedRecipient } from './inject-client';

/**
 * What the end of a hand-off writes, each inside the caller's transaction: the
 * message sent, or failed (or stopped). Status, recipients, timeline and webhook
 * outbox rows always change together.
 */

/** Statuses of a recipient the MTA has not taken yet. */
export const BEFORE_HAND_OFF: readonly EmailStatus[] = ['queued', 'processing'];

/** Who took the hand-off, and which recipients it was for. */
export interface HandOffScope {
  /**
   * NODE_NAME of the node whose MTA took it (the worker's own: it injects into its
   * node's MTA), recorded as `emails.mta_node` for the hand-back sweep; null when no
   * MTA took any recipient (test mail, the simulator); undefined leaves it as it is.
   */
  readonly mtaNode?: string | null | undefined;
  /** The node writing the `sent` entry. */
  readonly node?: string | null | undefined;
  /** The attempt's envelope recipients (a hand-back resends to some only); all when undefined. */
  readonly addresses?: readonly string[] | undefined;
}

/**
 * The MTA's 250: accepted recipients `sent`, refused ones `failed`, the message
 * aggregated from them. `accepted` null: recovered from delivery reports after
 * an interrupted attempt (every recipient counts as accepted, no reply known).
 * Recipients a racing delivery report already moved on keep their status.
 */
export async function recordSent(
  trx: Kysely<Database>,
  email: EmailRow,
  attempt: number,
  accepted: HandOffAccepted | null,
  scope: HandOffScope = {},
): Promise<boolean> {
  const at = isoNow();
  const current = await repo.findEmail(trx, email.id);
  if (!current || current.attempts !== attempt) return false;
  const recipients = await repo.listRecipients(trx, email.id);
  const refused = new Map<string, RejectedRecipient>((accepted?.rejected ?? []).map((r) => [r.address, r]));
  const response = accepted?.response ?? null;

  for (const r of refused.values()) {
    await repo.moveRecipients(
      trx,
      email.id,
      { from: BEFORE_HAND_OFF, to: 'failed', smtpResponse: r.response, addresses: [r.address] },
      at,
    );
  }
  const inScope = scope.addresses === undefined ? undefined : new Set(scope.addresses);
  const taken = recipients
    .filter((r) => !refused.has(r.address) && (inScope === undefined || inScope.has(r.address)))
    .map((r) => r.address);
  await repo.moveRecipients(
    trx,
    email.id,
    { from: BEFORE_HAND_OFF, to: 'sent', smtpResponse: response, addresses: taken },
    at,
  );
  const state = aggregate(await repo.recipientStates(trx, email.id));
  await repo.updateEmail(
    trx,
    email.id,
    {
      status: state?.status ?? 'sent',
      smtpResponse: state?.smtpResponse ?? response,
      sentAt: at,
      mtaNode: scope.mtaNode,
    },
    at,
  );
  const message =
    response ?? 'accepted by the MTA (known from its delivery reports; the hand-off itself was not recorded)';
  await recordEmailEvent(trx, {
    emailId: email.id,
    userId: email.user_id,
    type: 'sent',
    message,
    at,
    node: scope.node ?? null,
  });
  for (const address of taken) {
    await recordOutbox(trx, {
      userId: email.user_id,
      mode: email.mode,
      event: 'email.sent',
      emailId: email.id,
      recipient: address,
      data: {},
      at,
    });
  }
  for (const r of refused.values()) {
    await recordRecipientFailure(trx, email, r.address, r.response, r.statusCode, at);
  }
  return true;
}

async function recordRecipientFailure(
  trx: Kysely<Database>,
  email: EmailRow,
  recipient: string,
  reason: string,
  statusCode: number | null,
  at: string,
): Promise<void> {
  const base = { emailId: email.id, userId: email.user_id, recipient, at };
  await recordEmailEvent(trx, { ...base, type: 'failed', message: reason });
  await recordOutbox(trx, { ...base, mode: email.mode, event: 'email.failed', data: { reason, statusCode } });
}

export interface Failure {
  /** Timeline entry type: `failed`, or `stopped` when a precondition no longer held. */
  readonly event: 'failed' | 'stopped';
  readonly message: string;
  /** For `email.failed`. */
  readonly reason: string;
  readonly statusCode: number | null;
  /** Per-recipient refusals, which override reason and statusCode for those recipients. */
  readonly rejected?: readonly RejectedRecipient[] | undefined;
}

/** Ends the message `failed`: every recipient not yet handed off, one timeline entry, `email.failed` each. */
export async function failMessage(
  trx: Kysely<Database>,
  email: EmailRow,
  f: Failure,
  at: string,
): Promise<void> {
  const refused = new Map((f.rejected ?? []).map((r) => [r.address, r]));
  const moved: string[] = [];
  for (const r of refused.values()) {
    const move = {
      from: BEFORE_HAND_OFF,
      to: 'failed' as const,
      smtpResponse: r.response,
      addresses: [r.address],
    };
    moved.push(...(await repo.moveRecipients(trx, email.id, move, at)));
  }
  // A connection error is not an SMTP response: the recipients' and message's responses stay empty then.
  const response = f.statusCode !== null ? f.reason : null;
  moved.push(
    ...(await repo.moveRecipients(
      trx,
      email.id,
      { from: BEFORE_HAND_OFF, to: 'failed', smtpResponse: response },
      at,
    )),
  );
  await repo.updateEmail(trx, email.id, { status: 'failed', smtpResponse: response ?? undefined }, at);
  await recordEmailEvent(trx, {
    emailId: email.id,
    userId: email.user_id,
    type: f.event,
    message: f.message,
    at,
  });
  for (const address of moved) {
    const own = refused.get(address);
    await recordOutbox(trx, {
      userId: email.user_id,
      mode: email.mode,
      event: 'email.failed',
      emailId: email.id,
      recipient: address,
      data: { reason: own?.response ?? f.reason, statusCode: own?.statusCode ?? f.statusCode },
      at,
    });
  }
}
