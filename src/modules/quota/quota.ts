import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import { byArity, PreparedQuery } from '../../db/precompiled';
import type { Database, QuotaLedgerTable, SendMode } from '../../db/schema';
import { serialise } from '../../db/serialise';
import { newId } from '../../shared/ids';
import { sendingLimitExceeded } from '../emails';
import type { QuotaLimits, WindowBounds } from './quota-limits';
import { DAY_MS, HOUR_MS, MINUTE_MS, minuteOf, windowBounds } from './quota-limits';

type ScopeName = 'user' | 'domain' | 'api_key';

interface Scope {
  readonly name: ScopeName;
  readonly id: string;
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
const scopesUsed = byArity<ScopesUsedParams, ScopeUseRow>((db, s, arity) => {
  const minutes = (scope: ScopeName, i: number, part: 'hour' | 'dayHead') => {
    let q = db
      .selectFrom('quota_buckets')
      .select([
        sql<ScopeName>`${sql.lit(scope)}`.as('scope'),
        sql<ScopeUseRow['part']>`${sql.lit(part)}`.as('part'),
        sql<number | string | null>`sum(count)`.as('n'),
      ])
      .where('scope', '=', scope)
      .where('scope_id', '=', s.item('scopeIds', i));
    q =
      part === 'hour'
        ? q.where('minute', '>=', s.param('hourStart'))
        : q.where('minute', '>=', s.param('dayStart')).where('minute', '<', s.param('dayHeadEnd'));
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
      .where('scope_id', '=', s.item('scopeIds', i))
      .where('hour', '>=', s.param('dayHours'));
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

/** Test mode's quota scopes: `test:<user id>`, `test:<domain id>` (a test key's own id is its own). */
export const TEST_SCOPE_PREFIX = 'test:';

export interface ConsumeInput {
  readonly userId: string;
  readonly domainId: string;
  readonly apiKeyId: string | null;
  /**
   * `test` (issue 21): counted in buckets of their own (scope ids `test:<id>`) with the
   * same limits, so trying things out never spends the live allowance nor the reverse;
   * the ledger row carries the prefixed ids too, so abuse volume signals skip it.
   */
  readonly mode?: SendMode | undefined;
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
const addToScopeBuckets = byArity<BucketAdd, unknown>((db, s, arity) =>
  db
    .insertInto('quota_buckets')
    .values(
      SCOPE_ORDER.slice(0, arity).map((scope, i) => ({
        scope,
        scope_id: s.item('scopeIds', i),
        minute: s.param('minute'),
        count: s.param('count'),
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['scope', 'scope_id', 'minute'])
        .doUpdateSet((eb) => ({ count: eb('quota_buckets.count', '+', eb.ref('excluded.count')) })),
    ),
);

const insertLedger = new PreparedQuery<Insertable<QuotaLedgerTable>, unknown>((db, s) =>
  db.insertInto('quota_ledger').values({
    id: s.param('id'),
    user_id: s.param('user_id'),
    domain_id: s.param('domain_id'),
    api_key_id: s.param('api_key_id'),
    email_id: s.param('email_id'),
    count: s.param('count'),
    created_at: s.param('created_at'),
  }),
);

/**
 * Checks every scope (user, sending domain, API key) over the rolling hour and
 * day, then records the consumption. Must run inside the send transaction
 * (BEGIN IMMEDIATE serialises it on SQLite; on PostgreSQL `serialise` on the account's
 * key, or two nodes both read the allowance before either counts itself), so two
 * concurrent sends cannot both take the last of an allowance, and a rejected send
 * consumes nothing. Domain and key scopes carry the account's limits (the spec
 * leaves their defaults open). Three statements whatever the scopes (four on
 * PostgreSQL, the lock): one read, one upsert (migration 009's triggers add it to
 * the hour buckets too), the ledger row.
 */
/** One quota policy of the `RateLimit-Policy` field (draft-ietf-httpapi-ratelimit-headers). */
export interface RateLimitPolicy {
  readonly name: string;
  readonly quota: number;
  readonly windowS: number;
}

/** `RateLimit-Policy: "hour";q=100;w=3600, "day";q=1000;w=86400`. */
export function rateLimitPolicy(policies: readonly RateLimitPolicy[]): string {
  return policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowS}`).join(', ');
}

export async function consumeQuota(trx: Kysely<Database>, input: ConsumeInput): Promise<QuotaUsage> {
  const now = input.now ?? Date.now();
  const own = (id: string): string => (input.mode === 'test' ? `${TEST_SCOPE_PREFIX}${id}` : id);
  const scopes: Scope[] = [
    { name: 'user', id: own(input.userId) },
    { name: 'domain', id: own(input.domainId) },
    ...(input.apiKeyId ? [{ name: 'api_key', id: input.apiKeyId } as const] : []),
  ];
  const windows = [
    { window: 'hour', ms: HOUR_MS, limit: input.limits.hour },
    { window: 'day', ms: DAY_MS, limit: input.limits.day },
  ] as const;
  await serialise(trx, `quota:${input.userId}`);
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
        const freesAt = new Date(now + retryAfterS * 1000).toISOString();
        throw sendingLimitExceeded(
          `${w.window === 'hour' ? 'Hourly' : 'Daily'} sending allowance of the ${scope.name.replace('_', ' ')} spent (${count} of ${w.limit} recipients in the last ${w.window === 'hour' ? 'hour' : '24 hours'}; this message has ${input.count}). Nothing was sent. It frees up as earlier sends leave the rolling window: more can be sent from ${freesAt} (Retry-After). To send more sooner, the operator can raise the account’s allowance; limits the account set lower for itself (Settings) it can raise itself.`,
          {
            scope: scope.name,
            window: w.window,
            limit: w.limit,
            used: count,
            requested: input.count,
            freesAt,
          },
          {
            'Retry-After': String(retryAfterS),
            // draft-ietf-httpapi-ratelimit-headers: the policy that refused, and when it frees up.
            'RateLimit-Policy': rateLimitPolicy([{ name: w.window, quota: w.limit, windowS: w.ms / 1000 }]),
            RateLimit: `"${w.window}";r=0;t=${retryAfterS}`,
          },
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
    user_id: own(input.userId),
    domain_id: own(input.domainId),
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
