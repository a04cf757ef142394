import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitationsTable } from '../../db/schema';

export type InvitationRow = Selectable<InvitationsTable>;

export async function insertInvitation(db: Kysely<Database>, row: InvitationRow): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

/** Invitations neither accepted nor revoked nor expired at `now`, newest first. */
export async function listPendingInvitations(
  db: Kysely<Database>,
  now: string,
  limit: number,
): Promise<InvitationRow[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Marks a pending invitation accepted and answers its id, or undefined. Conditional, so of two
 * concurrent registrations with one token exactly one updates the row (PostgreSQL re-checks the
 * WHERE after the row lock; SQLite has one writer).
 */
export async function consumeInvitation(
  db: Kysely<Database>,
  at: { tokenHash: string; email: string; userId: string; now: string },
): Promise<string | undefined> {
  const row = await db
    .updateTable('invitations')
    .set({ accepted_at: at.now, accepted_user_id: at.userId })
    .where('token_hash', '=', at.tokenHash)
    .where('email', '=', at.email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at.now)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Revokes a pending invitation; false when there is none with that id. */
export async function revokeInvitation(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Claims the first-account slot; throws a unique violation when another registration has
 * it (on PostgreSQL the second insert waits for the first transaction, then fails).
 */
export async function claimFirstAccount(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  await db.insertInto('first_account').values({ id: 'first', user_id: userId, created_at: now }).execute();
}
