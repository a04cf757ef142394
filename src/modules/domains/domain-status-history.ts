import type { Kysely } from 'kysely';
import type { Database, DomainStatus } from '../../db/schema';
import { newId } from '../../shared/ids';

/** How many changes the history answers, newest first: enough for a screen, bounded for a flapping domain. */
export const STATUS_HISTORY_LIMIT = 100;

export interface StatusChangeInput {
  readonly domainId: string;
  readonly userId: string;
  readonly from: DomainStatus | null;
  readonly to: DomainStatus;
  readonly trigger: 'created' | 'api' | 'recheck';
  readonly checks: Readonly<Record<string, string>> | null;
  readonly at: string;
}

/** Written in the transaction that changes the status, so the history never disagrees with it. */
export async function recordStatusChange(db: Kysely<Database>, c: StatusChangeInput): Promise<void> {
  await db
    .insertInto('domain_status_changes')
    .values({
      id: newId('dsc'),
      domain_id: c.domainId,
      user_id: c.userId,
      from_status: c.from,
      to_status: c.to,
      trigger: c.trigger,
      checks: c.checks === null ? null : JSON.stringify(c.checks),
      created_at: c.at,
    })
    .execute();
}

export interface StatusChangeView {
  readonly from: DomainStatus | null;
  readonly to: DomainStatus;
  readonly trigger: string;
  readonly checks: Record<string, string> | null;
  readonly at: string;
}

/** The domain's changes, newest first (id breaks ties: ids sort by time of creation). */
export async function listStatusChanges(
  db: Kysely<Database>,
  userId: string,
  domainId: string,
): Promise<StatusChangeView[]> {
  const rows = await db
    .selectFrom('domain_status_changes')
    .select(['from_status', 'to_status', 'trigger', 'checks', 'created_at'])
    .where('user_id', '=', userId)
    .where('domain_id', '=', domainId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(STATUS_HISTORY_LIMIT)
    .execute();
  return rows.map((r) => ({
    from: r.from_status,
    to: r.to_status,
    trigger: r.trigger,
    checks: r.checks === null ? null : (JSON.parse(r.checks) as Record<string, string>),
    at: r.created_at,
  }));
}
