import type { Kysely, Selectable } from 'kysely';
import { PreparedQuery } from '../../db/precompiled';
import type { ApiKeysTable, Database } from '../../db/schema';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertApiKey(db: Kysely<Database>, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** Compiled once: every API request runs it (db/precompiled.ts). */
const activeKeyByHash = new PreparedQuery<{ hash: string }, ApiKeyRow>((db, s) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('key_hash', '=', s.param('hash'))
    .where('revoked_at', 'is', null),
);

export async function findActiveKeyByHash(
  db: Kysely<Database>,
  hash: string,
): Promise<ApiKeyRow | undefined> {
  return activeKeyByHash.first(db, { hash });
}

export async function listKeys(db: Kysely<Database>, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findKey(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function revokeKey(
  db: Kysely<Database>,
  userId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Last-use is advisory: at most one write a minute per key, whichever processes use it. */
export async function touchKey(
  db: Kysely<Database>,
  id: string,
  at: string,
  notSince: string,
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notSince)]))
    .execute();
}
