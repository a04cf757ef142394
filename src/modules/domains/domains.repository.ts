import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DomainsTable } from '../../db/schema';
import type { DomainState } from './domain-status';

export type DomainRow = Selectable<DomainsTable>;

/** Every read and write of a customer's domain is scoped by its account: another account's id is "not found". */
export async function findDomain(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findDomainByName(
  db: Kysely<Database>,
  userId: string,
  domain: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('user_id', '=', userId)
    .where('domain', '=', domain)
    .executeTakeFirst();
}

export async function listDomains(db: Kysely<Database>, userId: string): Promise<DomainRow[]> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function insertDomain(db: Kysely<Database>, row: DomainRow): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

export type DomainSettings = Partial<
  Pick<
    Updateable<DomainsTable>,
    'receive_enabled' | 'inbound_label' | 'addresses' | 'restrict_senders' | 'unsubscribe_link'
  >
>;

export async function updateDomainSettings(
  db: Kysely<Database>,
  userId: string,
  id: string,
  settings: DomainSettings,
  at: string,
): Promise<void> {
  await db
    .updateTable('domains')
    .set({ ...settings, updated_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
}

/**
 * Writes a verification outcome. `expectedStatus` guards against a concurrent
 * change (another attempt, a delete): returns false when the row was not updated.
 */
export async function saveVerificationState(
  db: Kysely<Database>,
  id: string,
  expectedStatus: DomainRow['status'],
  state: DomainState,
  checkedAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set({
      status: state.status,
      verified_at: state.verifiedAt,
      next_check_at: state.nextCheckAt,
      lookup_failures: state.lookupFailures,
      last_checked_at: checkedAt,
      updated_at: checkedAt,
    })
    .where('id', '=', id)
    .where('status', '=', expectedStatus)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The stored status, whatever the account (for internal re-reads only). */
export async function findDomainStatus(
  db: Kysely<Database>,
  id: string,
): Promise<DomainRow['status'] | undefined> {
  const row = await db.selectFrom('domains').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Whether another account holds this name verified (at most one can: see migration 002). */
export async function isVerifiedElsewhere(
  db: Kysely<Database>,
  domain: string,
  exceptId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('domain', '=', domain)
    .where('status', '=', 'VERIFIED')
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteDomain(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('domains')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Verified domains whose re-check is due, most overdue first. */
export async function listDueForRecheck(
  db: Kysely<Database>,
  now: string,
  limit: number,
): Promise<DomainRow[]> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('status', '=', 'VERIFIED')
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at', 'asc')
    .limit(limit)
    .execute();
}
