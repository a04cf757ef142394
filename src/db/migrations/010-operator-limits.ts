import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * An account's own sending limits, stored apart from the operator's (issue 17 finding 7).
 *
 * `users.emails_per_hour` / `emails_per_day` held one value written by both the operator
 * (raise or throttle) and the customer (`PATCH /v1/settings/limits`), whose ceiling was
 * the higher of the platform default and that value: a customer could lift a new
 * account's 20/h to the 100/h default, or clear an operator's throttle with `null`.
 * From here those two columns are the operator's alone; `own_emails_per_hour` /
 * `own_emails_per_day` are the customer's, and the allowance is the lower of the two
 * (modules/quota/quota.ts effectiveLimits).
 *
 * Existing values are split by replaying the account's `settings.limits_updated` audit
 * entries: the operator keeps the last value an operator set, the customer keeps a value
 * written after it. A throttle a customer cleared or raised comes back. When the replay
 * does not end at the stored value (entries missing), the value stays the operator's.
 * Either way no account's allowance goes up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('own_emails_per_hour', 'integer').execute();
  await db.schema.alterTable('users').addColumn('own_emails_per_day', 'integer').execute();

  const users = await sql<{ id: string; emails_per_hour: number | null; emails_per_day: number | null }>`
    select id, emails_per_hour, emails_per_day from users
    where emails_per_hour is not null or emails_per_day is not null
      or id in (select user_id from audit_log where action = 'settings.limits_updated')
  `.execute(db);
  for (const user of users.rows) {
    const entries = await sql<{ actor_type: string; details: string | null }>`
      select actor_type, details from audit_log
      where user_id = ${user.id} and action = 'settings.limits_updated'
      order by created_at, id
    `.execute(db);
    const hour = replay(entries.rows, 'emailsPerHour', user.emails_per_hour);
    const day = replay(entries.rows, 'emailsPerDay', user.emails_per_day);
    await sql`
      update users set emails_per_hour = ${hour.operator}, own_emails_per_hour = ${hour.own},
        emails_per_day = ${day.operator}, own_emails_per_day = ${day.own}
      where id = ${user.id}
    `.execute(db);
  }
}

interface Split {
  readonly operator: number | null;
  readonly own: number | null;
}

function replay(
  entries: readonly { actor_type: string; details: string | null }[],
  field: 'emailsPerHour' | 'emailsPerDay',
  stored: number | null,
): Split {
  let operator: number | null = null;
  let own: number | null = null;
  let last: number | null = null;
  for (const entry of entries) {
    let details: unknown;
    try {
      details = JSON.parse(entry.details ?? 'null');
    } catch {
      continue;
    }
    if (typeof details !== 'object' || details === null || !Object.hasOwn(details, field)) continue;
    const value = (details as Record<string, unknown>)[field];
    if (value !== null && typeof value !== 'number') continue;
    // An operator's write replaced the one column, the customer's value with it.
    if (entry.actor_type === 'operator') {
      operator = value;
      own = null;
    } else {
      own = value;
    }
    last = value;
  }
  return last === stored ? { operator, own } : { operator: stored, own: null };
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The single column the old code reads: the allowance it had, the lower of the two.
  await sql`
    update users set
      emails_per_hour = case when own_emails_per_hour is null then emails_per_hour
        when emails_per_hour is null or own_emails_per_hour < emails_per_hour then own_emails_per_hour
        else emails_per_hour end,
      emails_per_day = case when own_emails_per_day is null then emails_per_day
        when emails_per_day is null or own_emails_per_day < emails_per_day then own_emails_per_day
        else emails_per_day end
  `.execute(db);
  await db.schema.alterTable('users').dropColumn('own_emails_per_hour').execute();
  await db.schema.alterTable('users').dropColumn('own_emails_per_day').execute();
}
