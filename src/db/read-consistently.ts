import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Runs several reads against one snapshot of the database: a view assembled from a message, its
 * recipients and its timeline never mixes rows from before and after a concurrent commit (read
 * skew). PostgreSQL: a read-only REPEATABLE READ transaction; SQLite: a deferred (lock-free) one.
 */
export function readConsistently<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
}
