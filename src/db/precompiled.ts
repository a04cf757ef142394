import type { Compilable, CompiledQuery, Expression, Kysely, OperationNode, QueryResult } from 'kysely';
import { ValueNode } from 'kysely';
import type { DatabaseKind } from '../config/database-url';
import { dialectOf } from './dialect';
import type { Database } from './schema';

type ElementOf<T> = T extends readonly (infer E)[] ? E : never;

/** The keys of P whose values are lists (an IN list, one row per element). */
type ListKey<P> = { [K in keyof P]: P[K] extends readonly unknown[] ? K : never }[keyof P] & string;

/** A marker no real value starts with (a NUL byte, which none of our text columns holds). */
const MARKER = '\u0000slot:';

/**
 * A named parameter slot: where kysely binds a value, it binds this placeholder,
 * and `run` puts the value given under `name` (element `index` of a list) in its
 * place. It is an `Expression<T>`, not a T: `slots.param('ids').length` does not
 * compile, where the former proxy typed as the values compiled it to wrong SQL
 * (issue 18 item 4; the pattern of the kysely-params package).
 */
export class Param<T> implements Expression<T> {
  constructor(
    readonly name: string,
    readonly index: number | undefined,
  ) {}

  get expressionType(): T | undefined {
    return undefined;
  }

  /** The marker kysely compiles to one `?` and a parameter that `run` replaces. */
  get marker(): string {
    return `${MARKER}${this.name}${this.index === undefined ? '' : `#${this.index}`}`;
  }

  toOperationNode(): OperationNode {
    return ValueNode.create(this.marker);
  }
}

/** What a PreparedQuery's builder takes values from: typed slots named after the keys of P. */
export interface Slots<P> {
  /** The value `values[name]`. */
  param<K extends keyof P & string>(name: K): Param<P[K]>;
  /** One element of a list value: `values[name][index]`. */
  item<K extends ListKey<P>>(name: K, index: number): Param<ElementOf<P[K]>>;
  /** The first `length` elements of a list value: an IN list of that many slots. */
  list<K extends ListKey<P>>(name: K, length: number): Param<ElementOf<P[K]>>[];
}

/** A query builder for PreparedQuery: every value that changes between runs comes from `slots`. */
export type PreparedBuild<P extends object, R> = (db: Kysely<Database>, slots: Slots<P>) => Compilable<R>;

function slotsFor<P>(made: Map<string, Param<unknown>>): Slots<P> {
  const keep = <T>(p: Param<T>): Param<T> => {
    made.set(p.marker, p);
    return p;
  };
  return {
    param: (name) => keep(new Param(name, undefined)),
    item: (name, index) => keep(new Param(name, index)),
    list: (name, length) => Array.from({ length }, (_, i) => keep(new Param(name, i))),
  };
}

/**
 * A kysely query built and compiled once, then run many times with new values
 * (issue 11): building and compiling a query costs more than SQLite takes to run
 * most of ours, so the hot paths' statements (send commit, job claim/complete,
 * delivery) are compiled on first use and only their parameters change after;
 * bench/RESULTS.md has the numbers. Everything else uses plain kysely. The SQL still
 * comes from kysely's builder for the database in use, and runs through kysely's
 * connection handling (DESIGN.md).
 *
 * A slot is used where kysely binds a value (a comparison operand, an inserted or
 * updated value); constants in the builder stay as they are. A query whose SQL
 * depends on the values (a list's length) gets one PreparedQuery per shape: see
 * `perShape` and `byArity`.
 */
export class PreparedQuery<P extends object, R> {
  /**
   * Compiled once per dialect (issue 23): the SQL differs (`?` against `$1`, quoting),
   * and one process (a test, `ctl migrate-to-postgres`) may hold a SQLite and a
   * PostgreSQL database at once.
   */
  private readonly byDialect = new Map<DatabaseKind, Compiled<R>>();

  constructor(private readonly build: PreparedBuild<P, R>) {}

  /** The statement as it runs on `db` with `values`: its SQL and its parameters. */
  bind(db: Kysely<Database>, values: P): CompiledQuery<R> {
    const kind = dialectOf(db);
    const { compiled, slots } = this.byDialect.get(kind) ?? this.compile(db, kind);
    const parameters = compiled.parameters.map((constant, i) => {
      const slot = slots[i];
      if (slot === undefined) return constant;
      const value = values[slot.name as keyof P] as unknown;
      return slot.index === undefined ? value : (value as readonly unknown[])[slot.index];
    });
    return { ...compiled, parameters };
  }

  /** Runs on `db` (the database or a transaction); compiled with the first one seen of its dialect. */
  run(db: Kysely<Database>, values: P): Promise<QueryResult<R>> {
    return db.executeQuery<R>(this.bind(db, values));
  }

  async rows(db: Kysely<Database>, values: P): Promise<R[]> {
    return (await this.run(db, values)).rows;
  }

  async first(db: Kysely<Database>, values: P): Promise<R | undefined> {
    return (await this.run(db, values)).rows[0];
  }

  private compile(db: Kysely<Database>, kind: DatabaseKind): Compiled<R> {
    const made = new Map<string, Param<unknown>>();
    const compiled = this.build(db, slotsFor<P>(made)).compile();
    const slots = compiled.parameters.map((p) => (typeof p === 'string' ? made.get(p) : undefined));
    const entry = { compiled, slots };
    this.byDialect.set(kind, entry);
    return entry;
  }
}

/** A compiled statement and, for each parameter position, the slot that fills it (undefined: a constant). */
interface Compiled<R> {
  readonly compiled: CompiledQuery<R>;
  readonly slots: readonly (Param<unknown> | undefined)[];
}

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
  build: (db: Kysely<Database>, slots: Slots<P>, arity: number) => Compilable<R>,
): (arity: number) => PreparedQuery<P, R> {
  return perShape<number, P, R>(String, (arity) => (db, slots) => build(db, slots, arity));
}
