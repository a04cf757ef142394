import type { Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { databaseRawStore } from './raw-database-store';
import { fileRawStore } from './raw-file-store';
import { insertRawMessage } from './raw-message.repository';
import type { RawStore, StagedRaw } from './raw-store';

/** The raw store of `db`'s backend: rows on PostgreSQL, files under `dataDir/inbound/` on SQLite. */
export function rawStoreFor(db: Kysely<Database>, dataDir: string): RawStore {
  return dialectOf(db) === 'postgres' ? databaseRawStore(db) : fileRawStore(dataDir);
}

/** Inserts the staged rows in `trx`, the transaction that commits the jobs naming them; no-op for files. */
export async function commitStagedRaws(trx: Kysely<Database>, staged: readonly StagedRaw[]): Promise<void> {
  for (const s of staged) if (s.row !== undefined) await insertRawMessage(trx, s.row);
}
