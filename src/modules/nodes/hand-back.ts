import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { inSavepoint } from '../../db/write-batcher';
import { enqueue } from '../../jobs/enqueue';
import { aggregate } from '../delivery';
import * as delivery from '../delivery';
import { resendJob } from '../delivery';
import { recordEmailEvent } from '../emails';
import type { HeldEmail } from './nodes.repository';
import { findEmailsHeldBy, findSilentNodes, HELD_STATUSES } from './nodes.repository';

/**
 * Issue 23 item 3: each MTA node keeps its Haraka queue on its own disk, so a
 * message it accepted and has not delivered belongs to that node. When the node has
 * not heartbeated for NODE_DEAD_AFTER_S, its unfinished recipients (`sent`,
 * `deferred`) go back to `queued` and a new `email-send` (a resend, to those
 * recipients only) lets a node with an MTA deliver them. At least once: the silent
 * node may come back and deliver its own queue too; its late reports then meet
 * recipients that moved on and are applied by the same idempotent status machine
 * (a terminal recipient ignores them).
 */

/** Messages handed back per transaction: each commit stays short. */
const BATCH = 200;

export interface HandBackInput {
  readonly db: Kysely<Database>;
  /** NODE_NAME of the node running the sweep: never handed back, recorded on the entries. */
  readonly self: string;
  readonly deadAfterS: number;
  readonly now: Date;
}

export interface NodeHandBack {
  readonly node: string;
  readonly lastSeenAt: string;
  readonly emails: number;
}

/** The timeline entry of a hand-back (issue 23): `handed back: node X silent since HH:MM UTC`. */
export function handBackMessage(node: string, lastSeenAt: string): string {
  return `handed back: node ${node} silent since ${lastSeenAt.slice(11, 16)} UTC`;
}

/** Hands back every silent node's unfinished messages; returns what was handed back per node. */
export async function handBackSilentNodes(input: HandBackInput): Promise<NodeHandBack[]> {
  const cutoff = new Date(input.now.getTime() - input.deadAfterS * 1000).toISOString();
  const silent = await findSilentNodes(input.db, cutoff, input.self);
  const out: NodeHandBack[] = [];
  for (const node of silent) {
    let emails = 0;
    for (;;) {
      const n = await input.db
        .transaction()
        .execute((trx) => handBackBatch(trx, node.name, node.last_seen_at, input.self));
      emails += n.handedBack;
      // A full batch of which none could be handed back (changed meanwhile): the next sweep retries.
      if (n.seen < BATCH || n.handedBack === 0) break;
    }
    if (emails > 0) out.push({ node: node.name, lastSeenAt: node.last_seen_at, emails });
  }
  return out;
}

async function handBackBatch(
  trx: Kysely<Database>,
  node: string,
  lastSeenAt: string,
  self: string,
): Promise<{ seen: number; handedBack: number }> {
  const held = await findEmailsHeldBy(trx, node, BATCH);
  let handedBack = 0;
  for (const email of held) {
    // Its own savepoint: a message a report changed meanwhile is left to the next sweep alone.
    const done = await inSavepoint(trx, () => handBackOne(trx, email, node, lastSeenAt, self)).catch(
      () => false,
    );
    if (done) handedBack++;
  }
  return { seen: held.length, handedBack };
}

/** One message, guarded by the status and attempts read: a racing report or sweep wins. */
async function handBackOne(
  trx: Kysely<Database>,
  email: HeldEmail,
  node: string,
  lastSeenAt: string,
  self: string,
): Promise<boolean> {
  const at = new Date().toISOString();
  const moved = await delivery.moveRecipients(trx, email.id, { from: HELD_STATUSES, to: 'queued' }, at);
  // Another sweep, or reports that ended every held recipient, got there first.
  if (moved.length === 0) return false;
  const state = aggregate(await delivery.recipientStates(trx, email.id));
  const status = state?.status ?? 'queued';
  const updated = await delivery.updateEmail(trx, email.id, { status, mtaNode: null }, at, {
    status: email.status,
    attempts: email.attempts,
  });
  if (!updated)
    throw new Error(`message ${email.id} changed while being handed back; the next sweep retries`);
  await recordEmailEvent(trx, {
    emailId: email.id,
    userId: email.user_id,
    type: 'queued',
    message: handBackMessage(node, lastSeenAt),
    at,
    node: self,
  });
  await enqueue(trx, resendJob(email.id, email.attempts));
  return true;
}
