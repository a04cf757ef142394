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
}

// Runs for every message sent and every delivery report: compiled once
// (db/precompiled.ts), as building a kysely query costs more than SQLite takes to run it.
export const insertEvent = new PreparedQuery<Required<Insertable<EmailEventsTable>>, unknown>((db, p) =>
  db.insertInto('email_events').values({
    id: p.id,
    email_id: p.email_id,
    user_id: p.user_id,
    recipient: p.recipient,
    type: p.type,
    message: p.message,
    created_at: p.created_at,
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
