import type { EmailStatus } from '../../db/schema';
import { EMAIL_STATUSES } from '../../db/schema';
import type { DailyCount } from './stats.repository';

/** Every message status, in lifecycle order: `totals` carries each (0 when none). */
export const STATUSES: readonly EmailStatus[] = EMAIL_STATUSES;

/** Spec (Statistics overview): rates are computed over messages in one of these states only. */
export const TERMINAL_STATUSES: readonly EmailStatus[] = ['delivered', 'bounced', 'complained', 'failed'];

const DAY_MS = 86_400_000;

export interface OverviewWindow {
  readonly days: number;
  /** First UTC day included, `YYYY-MM-DD`. */
  readonly from: string;
  /** Last UTC day included (today). */
  readonly to: string;
}

/** `days` calendar days in UTC ending with today: days=1 is today so far. */
export function overviewWindow(days: number, now: Date): OverviewWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return {
    days,
    from: new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10),
    to: new Date(today).toISOString().slice(0, 10),
  };
}

/** `part` as a percentage of `whole`, two decimals; 0 when `whole` is 0 (no basis, no rate). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;
}

export type Totals = Readonly<Record<EmailStatus, number>> & { readonly total: number };

export interface Rates {
  /** delivered / terminal × 100 */
  readonly delivery: number;
  /** bounced / terminal × 100 */
  readonly bounce: number;
  /** complained / terminal × 100 */
  readonly complaint: number;
  /** The denominator: messages in a terminal state (delivered + bounced + complained + failed). */
  readonly terminalMessages: number;
}

export interface OverviewCounts {
  readonly totals: Totals;
  readonly rates: Rates;
  readonly daily: readonly DailyCount[];
}

/** Totals per current status and the rates, from the per-day counts of the window. */
export function summarise(daily: readonly DailyCount[]): OverviewCounts {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<EmailStatus, number>;
  for (const row of daily) byStatus[row.status] = (byStatus[row.status] ?? 0) + row.count;
  const total = STATUSES.reduce((n, s) => n + byStatus[s], 0);
  const terminal = TERMINAL_STATUSES.reduce((n, s) => n + byStatus[s], 0);
  return {
    totals: { ...byStatus, total },
    rates: {
      delivery: percent(byStatus.delivered, terminal),
      bounce: percent(byStatus.bounced, terminal),
      complaint: percent(byStatus.complained, terminal),
      terminalMessages: terminal,
    },
    daily,
  };
}
