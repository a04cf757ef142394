import type { Kysely } from 'kysely';
import { perShape, PreparedQuery } from '../../db/precompiled';
import type { Database, EmailStatus } from '../../db/schema';

export * from './delivery-reads.repository';

/**
 * Writes of the delivery side (worker): the message's status and attempts, its
 * recipients' moves and replies (the reads are in delivery-reads.repository.ts
 * and re-exported here, so callers use one namespace). Writes that depend on the
 * state read before them carry that state as a guard and report whether they
 * applied, so a concurrent writer is noticed instead of overwritten.
 *
 * Each statement runs for every message the worker sends or every delivery report
 * it applies, so each is compiled once (db/precompiled.ts): building and compiling
 * a kysely query cost the worker more CPU than SQLite took to run it (bench/RESULTS.md).
 * A statement whose SQL depends on its arguments (optional columns, list lengths)
 * gets one compiled query per shape (perShape in db/precompiled.ts).
 */

const startAttemptUpdate = new PreparedQuery<
  { emailId: string; status: EmailStatus; attempts: number; at: string },
  unknown
>((db, s) =>
  db
    .updateTable('emails')
    .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), updated_at: s.param('at') }))
    .where('id', '=', s.param('emailId'))
    .where('status', '=', s.param('status'))
    .where('attempts', '=', s.param('attempts')),
);

/**
 * Counts a new hand-off attempt and marks the message `processing`, provided it
 * is still in the status and attempt count the caller read.
 */
export async function startAttempt(
  db: Kysely<Database>,
  guard: { readonly emailId: string; readonly status: EmailStatus; readonly attempts: number },
  at: string,
): Promise<boolean> {
  const result = await startAttemptUpdate.run(db, { ...guard, at });
  return (result.numAffectedRows ?? 0n) > 0n;
}

export interface EmailUpdate {
  readonly status: EmailStatus;
  /** Left as it is when undefined. */
  readonly smtpResponse?: string | null | undefined;
  readonly sentAt?: string | undefined;
  /** Written only while the message has none: the first delivery counts. */
  readonly deliveredAt?: string | undefined;
  /** The node whose MTA holds the message now (migration 020); left as it is when undefined. */
  readonly mtaNode?: string | null | undefined;
}

interface EmailUpdateShape {
  readonly smtpResponse: boolean;
  readonly sentAt: boolean;
  readonly deliveredAt: boolean;
  readonly mtaNode: boolean;
  readonly expect: boolean;
}

interface EmailUpdateValues {
  emailId: string;
  status: EmailStatus;
  at: string;
  smtpResponse: string | null;
  sentAt: string;
  deliveredAt: string;
  mtaNode: string | null;
  expectStatus: EmailStatus;
  expectAttempts: number;
}

const emailUpdate = perShape<EmailUpdateShape, EmailUpdateValues, unknown>(
  (shape) => `${+shape.smtpResponse}${+shape.sentAt}${+shape.deliveredAt}${+shape.mtaNode}${+shape.expect}`,
  (shape) => (db, s) => {
    let q = db
      .updateTable('emails')
      .set((eb) => ({
        status: s.param('status'),
        updated_at: s.param('at'),
        ...(shape.smtpResponse ? { smtp_response: s.param('smtpResponse') } : {}),
        ...(shape.sentAt ? { sent_at: s.param('sentAt') } : {}),
        ...(shape.deliveredAt
          ? { delivered_at: eb.fn.coalesce('delivered_at', eb.val(s.param('deliveredAt'))) }
          : {}),
        ...(shape.mtaNode ? { mta_node: s.param('mtaNode') } : {}),
      }))
      .where('id', '=', s.param('emailId'));
    if (shape.expect)
      q = q.where('status', '=', s.param('expectStatus')).where('attempts', '=', s.param('expectAttempts'));
    return q;
  },
);

/**
 * Writes the message's state. With `expect`, only while its status and attempt
 * count are still those (the attempt that is writing has not been overtaken).
 */
export async function updateEmail(
  db: Kysely<Database>,
  emailId: string,
  update: EmailUpdate,
  at: string,
  expect?: { readonly status: EmailStatus; readonly attempts: number },
): Promise<boolean> {
  const shape: EmailUpdateShape = {
    smtpResponse: update.smtpResponse !== undefined,
    sentAt: update.sentAt !== undefined,
    deliveredAt: update.deliveredAt !== undefined,
    mtaNode: update.mtaNode !== undefined,
    expect: expect !== undefined,
  };
  const result = await emailUpdate(shape).run(db, {
    emailId,
    status: update.status,
    at,
    smtpResponse: update.smtpResponse ?? null,
    sentAt: update.sentAt ?? '',
    deliveredAt: update.deliveredAt ?? '',
    mtaNode: update.mtaNode ?? null,
    expectStatus: expect?.status ?? update.status,
    expectAttempts: expect?.attempts ?? 0,
  });
  return (result.numAffectedRows ?? 0n) > 0n;
}

interface MoveShape {
  readonly from: number;
  /** Number of addresses; -1: every recipient. */
  readonly addresses: number;
  readonly smtpResponse: boolean;
}

interface MoveValues {
  emailId: string;
  to: EmailStatus;
  at: string;
  smtpResponse: string | null;
  from: readonly EmailStatus[];
  addresses: readonly string[];
}

const recipientsMove = perShape<MoveShape, MoveValues, { address: string }>(
  (shape) => `${shape.from}:${shape.addresses}:${+shape.smtpResponse}`,
  (shape) => (db, s) => {
    let q = db
      .updateTable('email_recipients')
      .set({
        status: s.param('to'),
        updated_at: s.param('at'),
        ...(shape.smtpResponse ? { smtp_response: s.param('smtpResponse') } : {}),
      })
      .where('email_id', '=', s.param('emailId'))
      .where('status', 'in', s.list('from', shape.from));
    if (shape.addresses >= 0) {
      q = q.where('address', 'in', s.list('addresses', shape.addresses));
    }
    return q.returning('address');
  },
);

/** Moves the message's recipients that are in one of `from` to `to`; returns the addresses moved. */
export async function moveRecipients(
  db: Kysely<Database>,
  emailId: string,
  move: {
    readonly from: readonly EmailStatus[];
    readonly to: EmailStatus;
    /** Left as it is when undefined. */
    readonly smtpResponse?: string | null | undefined;
    /** Only these addresses; all when undefined. */
    readonly addresses?: readonly string[] | undefined;
  },
  at: string,
): Promise<string[]> {
  if (move.from.length === 0 || move.addresses?.length === 0) return [];
  const shape: MoveShape = {
    from: move.from.length,
    addresses: move.addresses?.length ?? -1,
    smtpResponse: move.smtpResponse !== undefined,
  };
  const rows = await recipientsMove(shape).rows(db, {
    emailId,
    to: move.to,
    at,
    smtpResponse: move.smtpResponse ?? null,
    from: move.from,
    addresses: move.addresses ?? [],
  });
  return rows.map((r) => r.address);
}

const recipientUpdate = new PreparedQuery<
  {
    recipientId: string;
    expectStatus: EmailStatus;
    status: EmailStatus;
    smtpResponse: string | null;
    at: string;
  },
  unknown
>((db, s) =>
  db
    .updateTable('email_recipients')
    .set({ status: s.param('status'), smtp_response: s.param('smtpResponse'), updated_at: s.param('at') })
    .where('id', '=', s.param('recipientId'))
    .where('status', '=', s.param('expectStatus')),
);

/** Sets one recipient's status and response while it is still in `expectStatus`. */
export async function updateRecipient(
  db: Kysely<Database>,
  recipientId: string,
  expectStatus: EmailStatus,
  update: { readonly status: EmailStatus; readonly smtpResponse: string | null },
  at: string,
): Promise<boolean> {
  const result = await recipientUpdate.run(db, {
    recipientId,
    expectStatus,
    status: update.status,
    smtpResponse: update.smtpResponse,
    at,
  });
  return (result.numAffectedRows ?? 0n) > 0n;
}
