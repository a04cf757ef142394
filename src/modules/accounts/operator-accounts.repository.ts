import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { containsIgnoringCase } from '../../db/text-match';
import { idTimeFloor } from '../../shared/id-time-floor';
import type { UserRow } from './accounts.repository';

export interface AccountListQuery {
  /** A substring of the email address or name, ignoring ASCII case. */
  readonly text?: string | undefined;
  readonly status?: UserRow['status'] | undefined;
  /** Only ids older than this one: newest account first. */
  readonly beforeId?: string | undefined;
  readonly limit: number;
}

/** Every account, newest first: the operator's view spans tenants by design. */
export async function listAccounts(db: Kysely<Database>, q: AccountListQuery): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll();
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.text !== undefined) {
    const text = q.text;
    query = query.where((eb) =>
      eb.or([containsIgnoringCase('email', text), containsIgnoringCase('name', text)]),
    );
  }
  if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
  return query.orderBy('id', 'desc').limit(q.limit).execute();
}

/**
 * Messages accepted per account since `sinceMs`: the (user_id, id) index, ids sorting by
 * creation time (shared/ids.ts), so no created_at scan.
 */
export async function messagesSince(
  db: Kysely<Database>,
  userIds: readonly string[],
  sinceMs: number,
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('emails')
    .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', 'in', [...userIds])
    .where('id', '>=', idTimeFloor('email', sinceMs))
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.n]));
}
