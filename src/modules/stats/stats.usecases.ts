import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { findUserById } from '../accounts';
import { accountNotFound } from '../accounts';
import type { QuotaUsage } from '../quota';
import type { QuotaConfig } from '../quota';
import { accountUsage } from '../quota';
import { effectiveLimits } from '../quota';
import type { OverviewCounts, OverviewWindow } from './stats-overview';
import { overviewWindow, summarise } from './stats-overview';
import { dailyCounts } from './stats.repository';

export interface StatsOverview extends OverviewCounts {
  readonly window: OverviewWindow;
  readonly usage: QuotaUsage;
}

/**
 * `GET /v1/stats/overview`: the account's messages created in the last `days` UTC
 * days, by current status, per day and in total; rates over terminal messages;
 * quota usage (recipients over the rolling hour and day, as sending counts them).
 */
export async function getOverview(deps: {
  readonly db: Kysely<Database>;
  readonly config: QuotaConfig;
  readonly userId: string;
  readonly days: number;
  readonly now?: Date | undefined;
}): Promise<StatsOverview> {
  const now = deps.now ?? new Date();
  const user = await findUserById(deps.db, deps.userId);
  if (!user) throw accountNotFound();
  const window = overviewWindow(deps.days, now);
  const [daily, usage] = await Promise.all([
    dailyCounts(deps.db, deps.userId, window.from),
    accountUsage(deps.db, deps.userId, effectiveLimits(user, deps.config, now.getTime()), now.getTime()),
  ]);
  return { window, ...summarise(daily), usage };
}
