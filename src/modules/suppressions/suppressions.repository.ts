import type { Kysely, Selectable } from 'kysely';
import { byArity } from '../../db/precompiled';
import type { Database, SuppressionsTable, SuppressionType } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { containsIgnoringCase } from '../../db/text-match';

export type SuppressionRow = Selectable<SuppressionsTable>;

/** The send path's screen, compiled once per number of addresses (db/precompiled.ts). */
const suppressedAmong = byArity<
  { userId: string; addresses: readonly string[] },
  { email: string; type: SuppressionType; created_at: string }
>((db, s, arity) =>
  db
    .selectFrom('suppressions')
    .select(['email', 'type', 'created_at'])
    .where('user_id', '=', s.param('userId'))
    .where('email', 'in', s.list('addresses', arity)),
);

/** A suppressed address as the send path's refusal explains it: why, and since when. */
export interface SuppressedAddress {
  readonly email: string;
  readonly type: SuppressionType;
  readonly since: string;
}

/** Which of `addresses` (canonical, lower-case) the account has suppressed. */
export async function findSuppressed(
  db: Kysely<Database>,
  userId: string,
  addresses: readonly string[],
): Promise<SuppressedAddress[]> {
  if (addresses.length === 0) return [];
  const rows = await suppressedAmong(addresses.length).rows(db, { userId, addresses });
  return rows.map((r) => ({ email: r.email, type: r.type, since: r.created_at }));
}

export interface SuppressionInput {
  readonly userId: string;
  readonly email: string;
  readonly type: SuppressionType;
  readonly reason: string | null;
  readonly sourceEmailId?: string | null;
}

/** Inserts unless the address is already suppressed; returns the new row, or undefined when it existed. */
export async function insertSuppression(
  db: Kysely<Database>,
  input: SuppressionInput,
): Promise<SuppressionRow | undefined> {
  const row: SuppressionRow = {
    id: newId('sup'),
    user_id: input.userId,
    email: input.email,
    type: input.type,
    reason: input.reason,
    source_email_id: input.sourceEmailId ?? null,
    created_at: isoNow(),
  };
  const res = await db
    .insertInto('suppressions')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'email']).doNothing())
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n ? row : undefined;
}

export async function findSuppression(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<SuppressionRow | undefined> {
  return db
    .selectFrom('suppressions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findSuppressionByEmail(
  db: Kysely<Database>,
  userId: string,
  email: string,
): Promise<SuppressionRow | undefined> {
  return db
    .selectFrom('suppressions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function deleteSuppression(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('suppressions')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export interface SuppressionQuery {
  readonly userId: string;
  readonly email?: string | undefined;
  /** A substring of the address, ignoring ASCII case (the dashboard's search). */
  readonly text?: string | undefined;
  readonly type?: SuppressionType | undefined;
  /** Page after this id (newest first). */
  readonly before?: string | undefined;
  readonly limit: number;
}

export async function listSuppressions(db: Kysely<Database>, q: SuppressionQuery): Promise<SuppressionRow[]> {
  let query = db
    .selectFrom('suppressions')
    .selectAll()
    .where('user_id', '=', q.userId)
    .orderBy('id', 'desc')
    .limit(q.limit);
  if (q.email !== undefined) query = query.where('email', '=', q.email);
  if (q.text !== undefined) {
    query = query.where(containsIgnoringCase('email', q.text));
  }
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  return query.execute();
}
