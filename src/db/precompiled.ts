import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema';

type ElementOf<T> = T extends readonly (infer E)[] ? E : never;

/** `item('ids', 2)` stands for `values.ids[2]`. */
export type ItemSlot<P> = <K extends keyof P>(key: K, index: number) => ElementOf<P[K]>;

/** `items(item, 'ids', 3)` stands for the first three elements of `values.ids`: an IN list of one arity. */
export function items<P, K extends keyof P>(item: ItemSlot<P>, key: K, length: number): ElementOf<P[K]>[] {
  return Array.from({ length }, (_, i) => item(key, i));
}

/** A marker no real value starts with (a NUL byte, which none of our text columns holds). */
const MARKER = '\u0000slot:';

interface Slot<P> {
  readonly key: keyof P;
  readonly index: number | undefined;
}

/**
 * A kysely query built and compiled once, then run many times with new values
 * (issue 11). Building and compiling a query costs more than SQLite takes to run
 * most of ours (50–150 µs each, measured by bench/api-accept), so the send path's
 * statements are compiled on first use and only their parameters change after.
 * The SQL still comes from kysely's builder for the database in use, and runs
 * through kysely's connection handling, so it stays as portable as the builder
 * code that describes it (DESIGN.md).
 *
 * `build` receives `slot`, an object standing in for the values (and `item` for
 * one element of a list value): each is a marker string that kysely binds as a
 * parameter like any value; after compiling, every parameter holding a marker
 * takes the matching value given to `run`. A slot must be used where kysely binds
 * a value (a comparison operand, an inserted or updated value), never where it
 * would write it into the SQL text. Constants in the builder stay as they are.
 * A query whose shape depends on the values (a list's length) gets one
 * PreparedQuery per shape: see `byArity`.
 */
export class PreparedQuery<P extends object, R> {
  private compiled: CompiledQuery<R> | undefined;
  /** For each parameter position: the value it takes, or undefined for a constant. */
  private slots: (Slot<P> | undefined)[] = [];

  constructor(private readonly build: (db: Kysely<Database>, slot: P, item: ItemSlot<P>) => Compilable<R>) {}

  /** Runs on `db` (the database or a transaction); compiled with the first one seen. */
  async run(db: Kysely<Database>, values: P): Promise<QueryResult<R>> {
    const compiled = this.compiled ?? this.compile(db);
    const parameters = compiled.parameters.map((constant, i) => {
      const slot = this.slots[i];
      if (slot === undefined) return constant;
      const value = values[slot.key] as unknown;
      return slot.index === undefined ? value : (value as readonly unknown[])[slot.index];
    });
    return db.executeQuery<R>({ ...compiled, parameters });
  }

  async rows(db: Kysely<Database>, values: P): Promise<R[]> {
    return (await this.run(db, values)).rows;
  }

  async first(db: Kysely<Database>, values: P): Promise<R | undefined> {
    return (await this.run(db, values)).rows[0];
  }

  private compile(db: Kysely<Database>): CompiledQuery<R> {
    const markers = new Map<string, Slot<P>>();
    const mark = (key: keyof P, index?: number): string => {
      const marker = `${MARKER}${String(key)}${index === undefined ? '' : `#${index}`}`;
      markers.set(marker, { key, index });
      return marker;
    };
    const slot = new Proxy({} as P, {
      get: (_target, prop) => (typeof prop === 'string' ? mark(prop as keyof P) : undefined),
    });
    const item = <K extends keyof P>(key: K, index: number): ElementOf<P[K]> =>
      mark(key, index) as ElementOf<P[K]>;
    const compiled = this.build(db, slot, item).compile();
    this.slots = compiled.parameters.map((p) => (typeof p === 'string' ? markers.get(p) : undefined));
    this.compiled = compiled;
    return compiled;
  }
}

/** A query builder for PreparedQuery: `slot` stands for the values, `item` for one element of a list. */
export type PreparedBuild<P extends object, R> = (
  db: Kysely<Database>,
  slot: P,
  item: ItemSlot<P>,
) => Compilable<R>;

/**
 * One PreparedQuery per shape of a statement whose SQL depends on its arguments
 * (optional columns, list lengths): `keyOf` names what changes the SQL, `build`
 * describes the statement for that shape. Compiled on first use of each shape.
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

/** One PreparedQuery per arity, for a query with a list whose length is part of its SQL. */
export function byArity<P extends object, R>(
  build: (db: Kysely<Database>, slot: P, item: ItemSlot<P>, arity: number) => Compilable<R>,
): (arity: number) => PreparedQuery<P, R> {
  return perShape<number, P, R>(String, (arity) => (db, slot, item) => build(db, slot, item, arity));
}
