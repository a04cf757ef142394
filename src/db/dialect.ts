import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';
import type { DatabaseKind } from '../config/database-url';

/**
 * Which engine `db` (a database, a transaction of one, or a migration's view) runs
 * on, for the few statements that must differ (issue 23); both forms sit side by
 * side where they are used. A module of its own so that migrations can ask without
 * importing connect.ts, which imports them.
 */
export function dialectOf<DB>(db: Kysely<DB>): DatabaseKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
