import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from './dialect';
import type { Database } from './schema';

/**
 * Makes the transactions that name `key` take their turn from here to their commit:
 * for a check-then-write (an allowance, a count limit) that must not be passed by two
 * writers at once. On SQLite the write lock (BEGIN IMMEDIATE, one writer per process)
 * already does this, so nothing is run. On PostgreSQL, under READ COMMITTED, two
 * connections (two nodes, or two requests of one node's pool) would both read the
 * old count and both pass (issue 23): a transaction-scoped advisory lock on the key,
 * released by the commit or rollback and touching no row. Keys are namespaced by
 * their callers (`quota:<user>`, `webhooks:<user>`); hashtextextended's 64 bits make
 * a collision between two keys a shared turn, never a missed one.
 */
export async function serialise(trx: Kysely<Database>, key: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
