import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import { effectiveLimits } from '../quota';
import type { AccountView } from './accounts.usecases';
import { accountView } from './accounts.usecases';
import type { AccountListQuery } from './operator-accounts.repository';
import { listAccounts, messagesSince } from './operator-accounts.repository';

const DAY_MS = 86_400_000;

export interface OperatorAccountSummary extends AccountView {
  /** Messages accepted in the last 24 hours and 30 days. */
  readonly volume: { readonly last24h: number; readonly last30d: number };
  /** The allowance in force now: override or default, lowered by the account's own limits. */
  readonly limits: { readonly emailsPerHour: number; readonly emailsPerDay: number };
}

/** The operator's accounts screen: a keyset page of accounts with volume and limits. */
export async function listOperatorAccounts(deps: {
  readonly db: Kysely<Database>;
  readonly config: Pick<
    AppConfig,
    'rateLimitEmailsPerHour' | 'rateLimitEmailsPerDay' | 'newAccountEmailsPerHour'
  >;
  readonly query: AccountListQuery;
  readonly now?: number;
}) {
  const now = deps.now ?? Date.now();
  const rows = await listAccounts(deps.db, { ...deps.query, limit: deps.query.limit + 1 });
  const page = rows.slice(0, deps.query.limit);
  const ids = page.map((r) => r.id);
  const [day, month] = await Promise.all([
    messagesSince(deps.db, ids, now - DAY_MS),
    messagesSince(deps.db, ids, now - 30 * DAY_MS),
  ]);
  const data = page.map((row): OperatorAccountSummary => {
    const limits = effectiveLimits(row, deps.config, now);
    return {
      ...accountView(row),
      volume: { last24h: day.get(row.id) ?? 0, last30d: month.get(row.id) ?? 0 },
      limits: { emailsPerHour: limits.hour, emailsPerDay: limits.day },
    };
  });
  return { data, hasMore: rows.length > deps.query.limit, lastId: page.at(-1)?.id ?? null };
}
