import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../../db/schema';
import { recordEmailEvent } from '../emails';
import { recordOutbox } from '../webhooks';

/** Recipients the worker has not handed to the MTA (as the send attempt's re-validation reads them). */
const NOT_HANDED_OFF: readonly EmailStatus[] = ['queued', 'processing'];
const BATCH = 500;

/**
 * Spec (Account status): suspension stops the account's queued messages, scheduled
 * ones included. Each becomes `failed` with a `stopped` timeline entry and an
 * `email.failed` event per recipient, exactly as the worker's pre-send
 * re-validation stops a message it finds suspended (modules/delivery/send-attempt),
 * so both paths leave the same trace. Messages already `processing` or at the MTA
 * are in flight and not recalled. Run inside the suspension's transaction: a worker
 * claiming a message serialises with it (BEGIN IMMEDIATE) and then finds it
 * `failed` and skips it. Returns how many messages were stopped.
 */
export async function stopQueuedEmails(
  trx: Kysely<Database>,
  input: { readonly userId: string; readonly reason: string; readonly at: string },
): Promise<number> {
  let stopped = 0;
  for (;;) {
    const ids = (
      await trx
        .selectFrom('emails')
        .select('id')
        .where('user_id', '=', input.userId)
        .where('status', '=', 'queued')
        .orderBy('id')
        .limit(BATCH)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return stopped;
    const recipients = await trx
      .selectFrom('email_recipients')
      .select(['email_id', 'address'])
      .where('email_id', 'in', ids)
      .where('status', 'in', NOT_HANDED_OFF)
      .orderBy('email_id')
      .orderBy('id')
      .execute();
    await trx
      .updateTable('email_recipients')
      .set({ status: 'failed', updated_at: input.at })
      .where('email_id', 'in', ids)
      .where('status', 'in', NOT_HANDED_OFF)
      .execute();
    await trx
      .updateTable('emails')
      .set({ status: 'failed', updated_at: input.at })
      .where('id', 'in', ids)
      .where('status', '=', 'queued')
      .execute();
    for (const emailId of ids) {
      await recordEmailEvent(trx, {
        emailId,
        userId: input.userId,
        type: 'stopped',
        message: input.reason,
        at: input.at,
      });
    }
    for (const r of recipients) {
      await recordOutbox(trx, {
        userId: input.userId,
        event: 'email.failed',
        emailId: r.email_id,
        recipient: r.address,
        data: { reason: input.reason, statusCode: null },
        at: input.at,
      });
    }
    stopped += ids.length;
  }
}
