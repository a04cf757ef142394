import type { Kysely, Selectable } from 'kysely';
import { PreparedQuery } from '../../db/precompiled';
import type { Database, UserRole, UsersTable } from '../../db/schema';
import { isoNow } from '../../shared/clock';

export type UserRow = Selectable<UsersTable>;

/** Compiled once: every authenticated request and every send reads it (db/precompiled.ts). */
const userById = new PreparedQuery<{ id: string }, UserRow>((db, s) =>
  db.selectFrom('users').selectAll().where('id', '=', s.param('id')),
);

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return userById.first(db, { id });
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function insertUser(
  db: Kysely<Database>,
  user: { id: string; email: string; name: string; passwordHash: string },
): Promise<UserRow> {
  const now = isoNow();
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      name: user.name,
      password_hash: user.passwordHash,
      status: 'ACTIVE',
      suspended_at: null,
      suspension_reason: null,
      emails_per_hour: null,
      emails_per_day: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const row = await findUserById(db, user.id);
  if (!row) throw new Error('inserted user not found');
  return row;
}

/** Replaces the hash and bumps the session epoch, which ends every earlier session. */
export async function updatePassword(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      password_hash: passwordHash,
      session_epoch: eb('session_epoch', '+', 1),
      updated_at: isoNow(),
    }))
    .where('id', '=', id)
    .execute();
}

/** Bumps the session epoch alone: every session issued so far stops working (logout). */
export async function bumpSessionEpoch(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1), updated_at: isoNow() }))
    .where('id', '=', id)
    .execute();
}

export async function setSuspension(
  db: Kysely<Database>,
  id: string,
  suspension: { reason: string; at: string } | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      status: suspension ? 'SUSPENDED' : 'ACTIVE',
      suspended_at: suspension?.at ?? null,
      suspension_reason: suspension?.reason ?? null,
      updated_at: isoNow(),
    })
    .where('id', '=', id)
    .execute();
}

/** The operator's overrides (`emails_per_*`); the account's own limits are setOwnLimits'. */
export async function setLimits(
  db: Kysely<Database>,
  id: string,
  limits: { emailsPerHour?: number | null; emailsPerDay?: number | null },
): Promise<void> {
  const set: { emails_per_hour?: number | null; emails_per_day?: number | null; updated_at: string } = {
    updated_at: isoNow(),
  };
  if (limits.emailsPerHour !== undefined) set.emails_per_hour = limits.emailsPerHour;
  if (limits.emailsPerDay !== undefined) set.emails_per_day = limits.emailsPerDay;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

/** The account's own limits (`own_emails_per_*`), which can only lower its allowance. */
export async function setOwnLimits(
  db: Kysely<Database>,
  id: string,
  limits: { emailsPerHour?: number | null; emailsPerDay?: number | null },
): Promise<void> {
  const set: { own_emails_per_hour?: number | null; own_emails_per_day?: number | null; updated_at: string } =
    { updated_at: isoNow() };
  if (limits.emailsPerHour !== undefined) set.own_emails_per_hour = limits.emailsPerHour;
  if (limits.emailsPerDay !== undefined) set.own_emails_per_day = limits.emailsPerDay;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

export async function listUsers(db: Kysely<Database>, limit: number): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at', 'asc').limit(limit).execute();
}

export async function setRole(db: Kysely<Database>, id: string, role: UserRole): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: isoNow() }).where('id', '=', id).execute();
}
