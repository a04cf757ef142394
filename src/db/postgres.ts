import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult } from 'kysely';
import type { ColumnDefinitionNode, RootOperationNode, UnknownRow } from 'kysely';
import { DataTypeNode, Kysely, OperationNodeTransformer, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

/**
 * PostgreSQL behind the same kysely interface as SQLite (issue 23 item 1). Loaded only
 * when DATABASE_URL names a server (connect.ts requires it lazily), so a SQLite
 * appliance never loads `pg`.
 */

// pg's type OIDs (src/include/catalog/pg_type.dat).
const INT8 = 20;
const NUMERIC = 1700;

/**
 * count(*), sum() of integers and our `bigint` columns arrive as int8, which pg hands
 * over as strings (a JS number cannot hold every int8). Ours are counts, sizes and
 * epoch milliseconds, all far below 2^53, and SQLite hands them over as numbers: so do
 * we, and refuse loudly rather than round if one ever is not.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} is beyond 2^53`);
  return n;
}

/** Per pool, not pg's global `types`: a process may hold other pg clients with other needs. */
function typeParsers(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8, parseInt8);
  // numeric: sum() over bigint and avg(); SQLite answers these as numbers too.
  types.setTypeParser(NUMERIC, Number);
  return types;
}

/**
 * The migrations' column types as SQLite reads them, said in PostgreSQL (applied to
 * schema builders only, so kysely's DDL stays one portable statement):
 * - `integer` is 64-bit in SQLite and 32-bit in PostgreSQL: `bigint` (epoch
 *   milliseconds and byte counts outgrow int4);
 * - `blob` is `bytea`;
 * - `text` compares and sorts byte-wise in SQLite (BINARY); PostgreSQL follows the
 *   database's locale unless told otherwise, which breaks keyset paging over our
 *   ULID-like ids and RFC 3339 timestamps and makes `<`/`>` on them locale-dependent.
 *   `collate "C"` on every text column keeps SQLite's order whatever the server's locale.
 */
class PortableDdlTransformer extends OperationNodeTransformer {
  protected override transformColumnDefinition(
    node: ColumnDefinitionNode,
    queryId?: Parameters<OperationNodeTransformer['transformNode']>[1],
  ): ColumnDefinitionNode {
    const out = super.transformColumnDefinition(node, queryId);
    if (!DataTypeNode.is(out.dataType)) return out;
    switch (out.dataType.dataType) {
      case 'integer':
        return { ...out, dataType: DataTypeNode.create('bigint') };
      case 'blob':
        return { ...out, dataType: DataTypeNode.create('bytea') };
      case 'text':
        return { ...out, dataType: sql.raw('text collate "C"').toOperationNode() };
      default:
        return out;
    }
  }
}

export class PortableDdlPlugin implements KyselyPlugin {
  private readonly transformer = new PortableDdlTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node, args.queryId);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

export interface PostgresOptions {
  readonly poolSize: number;
  /** Shown in pg_stat_activity: which process holds a connection. */
  readonly applicationName?: string | undefined;
}

export function openPostgres(url: string, options: PostgresOptions): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    types: typeParsers(),
    application_name: options.applicationName ?? 'mailroom',
  });
  // An idle connection the server closed (restart, failover) emits 'error' on the pool;
  // unhandled, that would end the process. The pool drops the client and opens another on
  // the next query, whose own error reaches its caller.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
