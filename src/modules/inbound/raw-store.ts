import type { Readable } from 'node:stream';
import type { RawMessagesTable } from '../../db/schema';

/**
 * Where the raw bytes of accepted mail live (issue 23 item 3; docs/inbound.md, "Raw
 * messages"): the MX intake, `POST /internal/bounces` and the simulator's reports
 * write them; the inbound and bounce jobs, `GET /v1/inbound/{id}/raw`, deletes and
 * retention read or remove them, all through this interface.
 *
 * - SQLite (one host): files under `$DATA_DIR/inbound/<day>/`, fsynced before the job
 *   naming them commits (raw-file-store.ts), exactly as before the interface.
 * - PostgreSQL (several nodes): rows of `raw_messages`, inserted in the transaction
 *   that commits the job naming them, so any node reads them and a crash between the
 *   bytes and the job cannot happen (raw-database-store.ts).
 */
export interface RawStore {
  readonly kind: 'file' | 'database';
  /**
   * Takes the bytes. File store: durable when this resolves. Database store: staged;
   * they become durable with the commit that runs {@link commitStagedRaws} on them.
   */
  put(bytes: Buffer | Readable): Promise<StagedRaw>;
  /** The bytes `ref` names; undefined when they are gone (deleted, swept, never committed). */
  get(ref: string): Promise<Buffer | undefined>;
  /** Removes the bytes; already gone is fine (a repeated delete, a replayed job). */
  delete(ref: string): Promise<void>;
  /** Undoes the puts whose commit failed (removes the files; staged rows were never written). */
  discard(staged: readonly StagedRaw[]): Promise<void>;
}

/** One put's result: what the job and the message row name the bytes by. */
export interface StagedRaw {
  /** A file path (file store) or `db:<raw_messages.id>` (database store). */
  readonly ref: string;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly size: number;
  /** Database store: the row to insert with the job that names `ref` (plain data: it crosses threads). */
  readonly row?: RawMessagesTable | undefined;
}

/** The prefix of a database store's references. */
export const DB_RAW_PREFIX = 'db:';
