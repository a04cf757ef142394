import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppConfig } from '../../config';
import { byArity, PreparedQuery } from '../../db/precompiled';
import type { Database, QuotaLedgerTable } from '../../db/schema';
import type { UserRow } from '../accounts/accounts.repository';
import { newId } from '../../shared/ids';
import { sendingLimitExceeded } from '../emails/emails.errors';

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
 * The account's allowance: the operator's override, else the platform default (during
 * the first 24 hours the hourly default is NEW_ACCOUNT_EMAILS_PER_HOUR), lowered by
 * the account's own limit when it set one. The account's own value can only lower it
 * (issue 17 finding 7: a self-service value used to replace the default and the override).
 */
export function effectiveLimits(user: UserRow, config: QuotaConfig, now = Date.now()): QuotaLimits {
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

type ScopeName = 'user' | 'domain' | 'api_key';

interface Scope {
  readonly name: ScopeName;
  readonly id: string;
}

const MINUTE_MS = 60_000;

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

interface ScopeUseRow {
  readonly scope: ScopeName;
  readonly part: 'hour' | 'dayHead' | 'dayHours';
  readonly n: number | string | null;
}

interface ScopesUsedParams extends WindowBounds {
  readonly scopeIds: readonly string[];
}

const SCOPE_ORDER: readonly ScopeName[] = ['user', 'domain', 'api_key'];

/**
 * The usage of the first `arity` scopes of SCOPE_ORDER, in one statement compiled
 * once per arity (the send path's hot read): a UNION ALL of three index ranges per
 * scope, each bounded whatever the volume (≤ 61 minute buckets for the hour, ≤ 60
 * minute buckets and ≤ 24 hour buckets for the day; see WindowBounds).
 */
const scopesUsed = byArity<ScopesUsedParams, ScopeUseRow>((db, p, item, arity) => {
  const minutes = (scope: ScopeName, i: number, part: 'hour' | 'dayHead') => {
    let q = db
      .selectFrom('quota_buckets')
      .select([
        sql<ScopeName>`${sql.lit(scope)}`.as('scope'),
        sql<ScopeUseRow['part']>`${sql.lit(part)}`.as('part'),
        sql<number | string | null>`sum(count)`.as('n'),
      ])
      .where('scope', '=', scope)
      .where('scope_id', '=', item('scopeIds', i));
    q =
      part === 'hour'
        ? q.where('minute', '>=', p.hourStart)
        : q.where('minute', '>=', p.dayStart).where('minute', '<', p.dayHeadEnd);
    return q;
  };
  const hours = (scope: ScopeName, i: number) =>
    db
      .selectFrom('quota_hour_buckets')
      .select([
        sql<ScopeName>`${sql.lit(scope)}`.as('scope'),
        sql<ScopeUseRow['part']>`${sql.lit('dayHours')}`.as('part'),
        sql<number | string | null>`sum(count)`.as('n'),
      ])
      .where('scope', '=', scope)
      .where('scope_id', '=', item('scopeIds', i))
      .where('hour', '>=', p.dayHours);
  // Same output columns from either table: typed as one builder so they chain.
  const branches = SCOPE_ORDER.slice(1, arity).flatMap((scope, i) => [
    minutes(scope, i + 1, 'hour'),
    minutes(scope, i + 1, 'dayHead'),
    hours(scope, i + 1) as unknown as ReturnType<typeof minutes>,
  ]);
  const user = minutes('user', 0, 'hour')
    .unionAll(minutes('user', 0, 'dayHead'))
    .unionAll(hours('user', 0) as unknown as ReturnType<typeof minutes>);
  return branches.reduce((q, b) => q.unionAll(b), user);
});

interface ScopeUse {
  readonly hour: number;
  readonly day: number;
}

/** Each scope's usage over the rolling hour and day at `now`. */
async function used(
  db: Kysely<Database>,
  scopes: readonly Scope[],
  now: number,
): Promise<Map<ScopeName, ScopeUse>> {
  const rows = await scopesUsed(scopes.length).rows(db, {
    scopeIds: scopes.map((s) => s.id),
    ...windowBounds(now),
  });
  const out = new Map<ScopeName, { hour: number; day: number }>();
  for (const scope of scopes) out.set(scope.name, { hour: 0, day: 0 });
  for (const r of rows) {
    const use = out.get(r.scope);
    if (!use) continue;
    const n = Number(r.n ?? 0);
    if (r.part === 'hour') use.hour += n;
    else use.day += n;
  }
  return out;
}

/**
 * The oldest minute still counted in a window starting at `start`: when it leaves
 * the window the allowance frees up. Read only when a send is refused.
 */
async function oldestCountedMinute(
  db: Kysely<Database>,
  scope: Scope,
  start: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('quota_buckets')
    .select('minute')
    .where('scope', '=', scope.name)
    .where('scope_id', '=', scope.id)
    .where('minute', '>=', start)
    .where('count', '>', 0)
    .orderBy('minute')
    .limit(1)
    .executeTakeFirst();
  return row?.minute;
}

async function addToBuckets(
  trx: Kysely<Database>,
  scopes: readonly Scope[],
  minute: string,
  delta: number,
): Promise<void> {
  for (const scope of scopes) {
    await trx
      .insertInto('quota_buckets')
      .values({ scope: scope.name, scope_id: scope.id, minute, count: delta })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'scope_id', 'minute'])
          .doUpdateSet((eb) => ({ count: eb('quota_buckets.count', '+', delta) })),
      )
      .execute();
  }
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
  const use = (await used(db, [{ name: 'user', id: userId }], now)).get('user') ?? { hour: 0, day: 0 };
  return { hour: { used: use.hour, limit: limits.hour }, day: { used: use.day, limit: limits.day } };
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

interface BucketAdd {
  readonly scopeIds: readonly string[];
  readonly minute: string;
  readonly count: number;
}

/** One upsert for the user, domain and (when present) key buckets of a minute. */
const addToScopeBuckets = byArity<BucketAdd, unknown>((db, p, item, arity) =>
  db
    .insertInto('quota_buckets')
    .values(
      SCOPE_ORDER.slice(0, arity).map((scope, i) => ({
        scope,
        scope_id: item('scopeIds', i),
        minute: p.minute,
        count: p.count,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['scope', 'scope_id', 'minute'])
        .doUpdateSet((eb) => ({ count: eb('quota_buckets.count', '+', eb.ref('excluded.count')) })),
    ),
);

const insertLedger = new PreparedQuery<Insertable<QuotaLedgerTable>, unknown>((db, p) =>
  db.insertInto('quota_ledger').values({
    id: p.id,
    user_id: p.user_id,
    domain_id: p.domain_id,
    api_key_id: p.api_key_id,
    email_id: p.email_id,
    count: p.count,
    created_at: p.created_at,
  }),
);

/**
 * Checks every scope (user, sending domain, API key) over the rolling hour and
 * day, then records the consumption. Must run inside the send transaction
 * (BEGIN IMMEDIATE serialises it), so two concurrent sends cannot both take the
 * last of an allowance, and a rejected send consumes nothing. Domain and key
 * scopes carry the account's limits (the spec leaves their defaults open).
 * Three statements whatever the scopes: one read, one upsert (migration 009's
 * triggers add it to the hour buckets too), the ledger row.
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
  const usage = await used(trx, scopes, now);
  for (const scope of scopes) {
    const use = usage.get(scope.name) ?? { hour: 0, day: 0 };
    for (const w of windows) {
      const count = use[w.window];
      if (count + input.count > w.limit) {
        // The allowance frees up as the oldest counted sends leave the window.
        const oldest = await oldestCountedMinute(trx, scope, minuteOf(now - w.ms));
        const retryAfterS = oldest
          ? Math.max(1, Math.ceil((Date.parse(`${oldest}:00.000Z`) + MINUTE_MS + w.ms - now) / 1000))
          : Math.ceil(w.ms / 1000);
        throw sendingLimitExceeded(
          `${w.window === 'hour' ? 'Hourly' : 'Daily'} sending allowance of the ${scope.name.replace('_', ' ')} spent (${count} of ${w.limit} used; this message has ${input.count} recipient${input.count === 1 ? '' : 's'})`,
          { scope: scope.name, window: w.window, limit: w.limit, used: count, requested: input.count },
          { 'Retry-After': String(retryAfterS) },
        );
      }
    }
  }
  const userUsage = usage.get('user') ?? { hour: 0, day: 0 };
  await addToScopeBuckets(scopes.length).run(trx, {
    scopeIds: scopes.map((s) => s.id),
    minute: minuteOf(now),
    count: input.count,
  });
  await insertLedger.run(trx, {
    id: newId('quo'),
    user_id: input.userId,
    domain_id: input.domainId,
    api_key_id: input.apiKeyId,
    email_id: input.emailId,
    count: input.count,
    created_at: new Date(now).toISOString(),
  });
  return {
    hour: { used: userUsage.hour + input.count, limit: input.limits.hour },
    day: { used: userUsage.day + input.count, limit: input.limits.day },
  };
}

/** A cancelled message gives its allowance back (to the buckets it was counted in). */
export async function refundQuota(trx: Kysely<Database>, emailId: string): Promise<void> {
  const rows = await trx.selectFrom('quota_ledger').selectAll().where('email_id', '=', emailId).execute();
  for (const r of rows) {
    const scopes: Scope[] = [
      { name: 'user', id: r.user_id },
      { name: 'domain', id: r.domain_id },
      ...(r.api_key_id ? [{ name: 'api_key', id: r.api_key_id } as const] : []),
    ];
    await addToBuckets(trx, scopes, minuteOf(Date.parse(r.created_at)), -r.count);
  }
  await trx.deleteFrom('quota_ledger').where('email_id', '=', emailId).execute();
}
