import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isoNow } from '../../shared/clock';
import { newId } from '../../shared/ids';
import type { RawStore, StagedRaw } from './raw-store';
import { DB_RAW_PREFIX } from './raw-store';
import { deleteRawRow, findRawContent } from './raw-message.repository';

async function collect(bytes: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(bytes)) return bytes;
  const chunks: Buffer[] = [];
  for await (const chunk of bytes as AsyncIterable<Buffer | string>) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks);
}

/** The id a `db:` reference names; undefined for anything else (a file path from before a migration). */
function idOf(ref: string): string | undefined {
  return ref.startsWith(DB_RAW_PREFIX) ? ref.slice(DB_RAW_PREFIX.length) : undefined;
}

/**
 * Raw bytes as `raw_messages` rows (PostgreSQL): every node of a cluster reads what any
 * node's MX accepted. `put` only stages the row (held in memory: the message is bounded by
 * EMAIL_MAX_SIZE_BYTES); the caller inserts it with the job that names it, in one
 * transaction, so 250/202 follows one durable commit and a crash leaves no orphan.
 */
export function databaseRawStore(db: Kysely<Database>): RawStore {
  return {
    kind: 'database',
    async put(bytes): Promise<StagedRaw> {
      const content = await collect(bytes);
      const id = newId('raw');
      const sha256 = crypto.createHash('sha256').update(content).digest('hex');
      return {
        ref: `${DB_RAW_PREFIX}${id}`,
        sha256,
        size: content.length,
        row: { id, sha256, size: content.length, content, created_at: isoNow() },
      };
    },
    async get(ref) {
      const id = idOf(ref);
      return id === undefined ? undefined : findRawContent(db, id);
    },
    async delete(ref) {
      const id = idOf(ref);
      if (id !== undefined) await deleteRawRow(db, id);
    },
    // Staged rows were never inserted: nothing to undo.
    discard: () => Promise.resolve(),
  };
}
