import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { UserRow } from '../accounts/accounts.repository';
import { newId } from '../../shared/ids';
import { sendingLimitExceeded } from './emails.errors';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export interface QuotaLimits {
  readonly hour: number;
  readonly day: number;
}

export type QuotaConfig = Pick<
  AppConfig,
  'rateLimitEmailsPerHour' | 'rateLimitEmailsPerDay' | 'newAccountEmailsPerHour'
>;

/**
 * The account's allowance: its overrides, else the platform defaults; during the
 * first 24 hours the hourly default is NEW_ACCOUNT_EMAILS_PER_HOUR unless an
 * operator set the account's own hourly limit.
 */
export function effectiveLimits(user: UserRow, config: QuotaConfig, now = Date.now()): QuotaLimits {
  const isNew = now - Date.parse(user.created_at) < DAY_MS;
  const defaultHour = isNew
    ? Math.min(config.rateLimitEmailsPerHour, config.newAccountEmailsPerHour)
    : config.rateLimitEmailsPerHour;
  return {
    hour: user.emails_per_hour ?? defaultHour,
    day: user.emails_per_day ?? config.rateLimitEmailsPerDay,
  };
}

type Scope =
  | { readonly name: 'user'; readonly id: string }
  | { readonly name: 'domain'; readonly id: string }
  | { readonly name: 'api_key'; readonly id: string };

const COLUMN = { user: 'user_id', domain: 'domain_id', api_key: 'api_key_id' } as const;

async function used(
  db: Kysely<Database>,
  scope: Scope,
  since: string,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('quota_ledger')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('count'), eb.lit(0)).as('count'),
      eb.fn.min<string>('created_at').as('oldest'),
    ])
    .where(COLUMN[scope.name], '=', scope.id)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? null };
}

export interface UsageWindow {
  readonly used: number;
  readonly limit: number;
}

export interface QuotaUsage {
  readonly hour: UsageWindow;
  readonly day: UsageWindow;
}

/** The account's rolling-window usage (per recipient), as `GET /v1/settings` and the stats show it. */
export async function accountUsage(
  db: Kysely<Database>,
  userId: string,
  limits: QuotaLimits,
  now = Date.now(),
): Promise<QuotaUsage> {
  const scope: Scope = { name: 'user', id: userId };
  const [hour, day] = await Promise.all([
    used(db, scope, new Date(now - HOUR_MS).toISOString()),
    used(db, scope, new Date(now - DAY_MS).toISOString()),
  ]);
  return { hour: { used: hour.count, limit: limits.hour }, day: { used: day.count, limit: limits.day } };
}

export interface ConsumeInput {
  readonly userId: string;
  readonly domainId: string;
  readonly apiKeyId: string | null;
  readonly emailId: string;
  /** Recipients of the message: the quota counts per recipient. */
  readonly count: number;
  readonly limits: QuotaLimits;
  readonly now?: number;
}

/**
 * Checks every scope (user, sending domain, API key) over the rolling hour and
 * day, then records the consumption. Must run inside the send transaction
 * (BEGIN IMMEDIATE serialises it), so two concurrent sends cannot both take the
 * last of an allowance, and a rejected send consumes nothing. Domain and key
 * scopes carry the account's limits (the spec leaves their defaults open).
 */
export async function consumeQuota(trx: Kysely<Database>, input: ConsumeInput): Promise<QuotaUsage> {
  const now = input.now ?? Date.now();
  const scopes: Scope[] = [
    { name: 'user', id: input.userId },
    { name: 'domain', id: input.domainId },
    ...(input.apiKeyId ? [{ name: 'api_key', id: input.apiKeyId } as const] : []),
  ];
  const windows = [
    { window: 'hour', ms: HOUR_MS, limit: input.limits.hour },
    { window: 'day', ms: DAY_MS, limit: input.limits.day },
  ] as const;
  let userUsage: { hour: number; day: number } = { hour: 0, day: 0 };
  for (const scope of scopes) {
    for (const w of windows) {
      const u = await used(trx, scope, new Date(now - w.ms).toISOString());
      if (scope.name === 'user') userUsage = { ...userUsage, [w.window]: u.count };
      if (u.count + input.count > w.limit) {
        // The allowance frees up as the oldest counted sends leave the window.
        const retryAfterS = u.oldest
          ? Math.max(1, Math.ceil((Date.parse(u.oldest) + w.ms - now) / 1000))
          : Math.ceil(w.ms / 1000);
        throw sendingLimitExceeded(
          `${w.window === 'hour' ? 'Hourly' : 'Daily'} sending allowance of the ${scope.name.replace('_', ' ')} spent (${u.count} of ${w.limit} used; this message has ${input.count} recipient${input.count === 1 ? '' : 's'})`,
          { scope: scope.name, window: w.window, limit: w.limit, used: u.count, requested: input.count },
          { 'Retry-After': String(retryAfterS) },
        );
      }
    }
  }
  await trx
    .insertInto('quota_ledger')
    .values({
      id: newId('quo'),
      user_id: input.userId,
      domain_id: input.domainId,
      api_key_id: input.apiKeyId,
      email_id: input.emailId,
      count: input.count,
      created_at: new Date(now).toISOString(),
    })
    .execute();
  return {
    hour: { used: userUsage.hour + input.count, limit: input.limits.hour },
    day: { used: userUsage.day + input.count, limit: input.limits.day },
  };
}

/** A cancelled message gives its allowance back. */
export async function refundQuota(trx: Kysely<Database>, emailId: string): Promise<void> {
  await trx.deleteFrom('quota_ledger').where('email_id', '=', emailId).execute();
}
