import type { Compilable, Kysely } from 'kysely';
import type { ItemSlot } from '../db/precompiled';
import { PreparedQuery } from '../db/precompiled';
import type { Database } from '../db/schema';

/** A query builder for PreparedQuery: `slot` stands for the values, `item` for one element of a list. */
export type PreparedBuild<P extends object, R> = (
  db: Kysely<Database>,
  slot: P,
  item: ItemSlot<P>,
) => Compilable<R>;

/**
 * One PreparedQuery (db/precompiled.ts) per shape of a statement whose SQL depends
 * on its arguments (optional columns, list lengths): `keyOf` names what changes
 * the SQL, `build` describes the statement for that shape. Compiled on first use
 * of each shape. Used by the worker's hot path (job claims and settlements, the
 * send and outcome jobs' reads and writes), where building and compiling a kysely
 * query cost more CPU than SQLite took to run it.
 */
export function perShape<S, P extends object, R>(
  keyOf: (shape: S) => string,
  build: (shape: S) => PreparedBuild<P, R>,
): (shape: S) => PreparedQuery<P, R> {
  const cache = new Map<string, PreparedQuery<P, R>>();
  return (shape) => {
    const key = keyOf(shape);
    let q = cache.get(key);
    if (!q) {
      q = new PreparedQuery<P, R>(build(shape));
      cache.set(key, q);
    }
    return q;
  };
}
