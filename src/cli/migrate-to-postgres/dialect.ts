import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// TEMPORARY until s7/pg-core lands src/db/dialect.ts: the same function, then this file goes.
export function dialectOf<DB>(db: Kysely<DB>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
