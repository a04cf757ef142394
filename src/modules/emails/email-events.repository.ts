import type { Insertable, Kysely } from 'kysely';
import { PreparedQuery } from '../../db/precompiled';
import type { Database, EmailEventsTable, OutboxTable } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';

export interface EmailEventInput {
  readonly emailId: string;
  readonly userId: string;
  readonly recipient?: string | null;
  /** queued, processing, sent, delivered, deferred, bounced, failed, complained, cancelled, soft_bounce … */
  readonly type: string;
  readonly message?: string | null;
  readonly at?: string;
}

// Both inserts run for every message sent and every delivery report: compiled once
// (db/precompiled.ts), as building a kysely query costs more than SQLite takes to run it.
export const insertEvent = new PreparedQuery<Required<Insertable<EmailEventsTable>>, unknown>((db, s) =>
  db.insertInto('email_events').values({
    id: s.param('id'),
    email_id: s.param('email_id'),
    user_id: s.param('user_id'),
    recipient: s.param('recipient'),
    type: s.param('type'),
    message: s.param('message'),
    created_at: s.param('created_at'),
  }),
);

/** Appends one entry to a message's timeline (spec: Email event). */
export async function recordEmailEvent(db: Kysely<Database>, e: EmailEventInput): Promise<void> {
  await insertEvent.run(db, {
    id: newId('evt'),
    email_id: e.emailId,
    user_id: e.userId,
    recipient: e.recipient ?? null,
    type: e.type,
    message: e.message ?? null,
    created_at: e.at ?? isoNow(),
  });
}

/** Webhook event names (spec: Events). */
export type WebhookEventName =
  'email.sent' | 'email.delivered' | 'email.bounced' | 'email.failed' | 'email.complained' | 'email.received';

export interface OutboxInput {
  readonly userId: string;
  readonly event: WebhookEventName;
  readonly emailId: string | null;
  readonly recipient: string | null;
  /** The payload without `event` and `timestamp`, which are added here. */
  readonly data: Record<string, unknown>;
  readonly at?: string;
}

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
