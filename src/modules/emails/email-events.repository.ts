import type { Insertable, Kysely } from 'kysely';
import { PreparedQuery } from '../../db/precompiled';
import type { Database, EmailEventsTable } from '../../db/schema';
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
  /** How the delivery attempt's SMTP session was protected (see migration 019). */
  readonly tls?: string | null;
  /** NODE_NAME of the node writing it (migration 020): the hand-off's worker, the reporting MTA. */
  readonly node?: string | null;
}

// Runs for every message sent and every delivery report: compiled once
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
    tls: s.param('tls'),
    node: s.param('node'),
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
    tls: e.tls ?? null,
    node: e.node ?? null,
  });
}
