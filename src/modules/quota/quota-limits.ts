import type { AppConfig } from '../../config';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/schema';

// The allowance and its rolling windows as pure functions of the clock; quota.ts counts
// against them in the database.

export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

export interface QuotaLimits {
  readonly hour: number;
  readonly day: number;
}

export type QuotaConfig = Pick<
  AppConfig,
  'rateLimitEmailsPerHour' | 'rateLimitEmailsPerDay' | 'newAccountEmailsPerHour'
>;

/**
 * The account's allowance: the operator's override, else the platform default (during
 * the first 24 hours the hourly default is NEW_ACCOUNT_EMAILS_PER_HOUR), lowered by
 * the account's own limit when it set one. The account's own value can only lower it
 * (issue 17 finding 7: a self-service value used to replace the default and the override).
 */
/** The columns of an account's row that decide its limits. */
export type LimitColumns = Pick<
  Selectable<UsersTable>,
  'created_at' | 'emails_per_hour' | 'own_emails_per_hour' | 'emails_per_day' | 'own_emails_per_day'
>;

export function effectiveLimits(user: LimitColumns, config: QuotaConfig, now = Date.now()): QuotaLimits {
  const isNew = now - Date.parse(user.created_at) < DAY_MS;
  const defaultHour = isNew
    ? Math.min(config.rateLimitEmailsPerHour, config.newAccountEmailsPerHour)
    : config.rateLimitEmailsPerHour;
  return {
    hour: lowered(user.emails_per_hour ?? defaultHour, user.own_emails_per_hour),
    day: lowered(user.emails_per_day ?? config.rateLimitEmailsPerDay, user.own_emails_per_day),
  };
}

function lowered(limit: number, own: number | null): number {
  return own === null ? limit : Math.min(limit, own);
}

export const MINUTE_MS = 60_000;

/** `YYYY-MM-DDTHH:MM`: the bucket a moment falls in. */
export function minuteOf(ms: number): string {
  return new Date(ms - (ms % MINUTE_MS)).toISOString().slice(0, 16);
}

/** `YYYY-MM-DDTHH`: the hour bucket (quota_hour_buckets) a moment falls in. */
export function hourOf(ms: number): string {
  return new Date(ms - (ms % HOUR_MS)).toISOString().slice(0, 13);
}

/**
 * Where the rolling windows at `now` start, in bucket keys. A window counts whole
 * every minute bucket from the one holding its start: it is up to a minute longer
 * than nominal, so an allowance is never exceeded, only released up to a minute
 * late. The day window is read as the minute buckets of its first (partial) hour,
 * `[dayStart, dayHeadEnd)`, plus the hour buckets from `dayHours` on (the current
 * hour included): the same minutes as `minute >= dayStart`, in at most 60 + 24
 * rows instead of 1,440.
 */
export interface WindowBounds {
  readonly hourStart: string;
  readonly dayStart: string;
  readonly dayHeadEnd: string;
  readonly dayHours: string;
}

export function windowBounds(now: number): WindowBounds {
  const dayHours = hourOf(now - DAY_MS + HOUR_MS);
  return {
    hourStart: minuteOf(now - HOUR_MS),
    dayStart: minuteOf(now - DAY_MS),
    dayHeadEnd: `${dayHours}:00`,
    dayHours,
  };
}
