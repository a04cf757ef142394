import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** `credential_attempts` (migration 021): attempts per key and fixed window, shared by every node. */

export async function windowHits(db: Kysely<Database>, key: string, windowStart: string): Promise<number> {
  const row = await db
    .selectFrom('credential_attempts')
    .select('hits')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/**
 * Counts one attempt in the window if it has fewer than `below` already; the new count, or
 * undefined when refused. One statement (an upsert whose update is conditional), so attempts
 * racing on several nodes never overshoot the budget.
 */
export async function countAttemptBelow(
  db: Kysely<Database>,
  key: string,
  windowStart: string,
  below: number,
): Promise<number | undefined> {
  const row = await db
    .insertInto('credential_attempts')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc
        .columns(['key', 'window_start'])
        .doUpdateSet((eb) => ({ hits: eb('credential_attempts.hits', '+', 1) }))
        .where('credential_attempts.hits', '<', below),
    )
    .returning('hits')
    .executeTakeFirst();
  return row?.hits;
}

/** Takes back one attempt counted in the window (a success: issue 28 item 6). */
export async function uncountAttempt(db: Kysely<Database>, key: string, windowStart: string): Promise<void> {
  await db
    .updateTable('credential_attempts')
    .set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 0)
    .execute();
}

/** Deletes windows that started before `before`: no estimate reads them any more. */
export async function deleteWindowsBefore(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('credential_attempts').where('window_start', '<', before).execute();
}
