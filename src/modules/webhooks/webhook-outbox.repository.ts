import type { Insertable, Kysely } from 'kysely';
import { PreparedQuery } from '../../db/precompiled';
import type { Database, OutboxTable, SendMode } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';

/** Webhook event names (spec: Events). */
export type WebhookEventName =
  | 'email.sent'
  | 'email.delivered'
  | 'email.bounced'
  | 'email.failed'
  | 'email.complained'
  | 'email.received'
  | 'email.unsubscribed';

export interface OutboxInput {
  readonly userId: string;
  readonly event: WebhookEventName;
  readonly emailId: string | null;
  readonly recipient: string | null;
  /** The payload without `event` and `timestamp`, which are added here. */
  readonly data: Record<string, unknown>;
  readonly at?: string;
  /** The message's mode: test mail's payloads carry `mode: "test"` (issue 21); live ones are unchanged. */
  readonly mode?: SendMode | undefined;
}

// Runs for every message sent and every delivery report: compiled once (db/precompiled.ts),
// as building a kysely query costs more than SQLite takes to run it.
const insertOutbox = new PreparedQuery<Required<Insertable<OutboxTable>>, unknown>((db, s) =>
  db.insertInto('outbox').values({
    id: s.param('id'),
    user_id: s.param('user_id'),
    event: s.param('event'),
    email_id: s.param('email_id'),
    recipient: s.param('recipient'),
    payload: s.param('payload'),
    created_at: s.param('created_at'),
    dispatched_at: s.param('dispatched_at'),
  }),
);

/**
 * Records a webhook event in the outbox, in the same transaction as the state
 * change it announces; delivery to endpoints happens later from the outbox.
 */
export async function recordOutbox(db: Kysely<Database>, o: OutboxInput): Promise<void> {
  const at = o.at ?? isoNow();
  const payload = {
    event: o.event,
    emailId: o.emailId,
    timestamp: at,
    recipient: o.recipient,
    ...(o.mode === 'test' ? { mode: 'test' } : {}),
    ...o.data,
  };
  await insertOutbox.run(db, {
    id: newId('obx'),
    user_id: o.userId,
    event: o.event,
    email_id: o.emailId,
    recipient: o.recipient,
    payload: JSON.stringify(payload),
    created_at: at,
    dispatched_at: null,
  });
}
