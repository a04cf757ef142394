import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { idempotencyKeyReused } from '../emails/emails.errors';
import { validationError } from '../../shared/app-error';

const WINDOW_MS = 24 * 3600_000;

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined || key === '') return undefined;
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw validationError('Idempotency-Key must be 1-255 visible ASCII characters', {
      fields: [{ field: 'header.Idempotency-Key', message: 'must be 1-255 visible ASCII characters' }],
    });
  }
  return key;
}

/**
 * A request repeated with the same key within 24 h gets the original response;
 * the same key with another body is a 409. Older keys are forgotten.
 */
export async function replayIdempotent(
  db: Kysely<Database>,
  userId: string,
  key: string,
  requestHash: string,
  now = Date.now(),
): Promise<StoredResponse | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || Date.parse(row.created_at) < now - WINDOW_MS) return undefined;
  if (row.request_hash !== requestHash) throw idempotencyKeyReused();
  return { status: row.status_code, body: JSON.parse(row.response) as unknown };
}

/** Stored in the send transaction, so the key and the message it created commit together. */
export async function storeIdempotent(
  trx: Kysely<Database>,
  input: { userId: string; key: string; requestHash: string; response: StoredResponse; now?: number },
): Promise<void> {
  const now = input.now ?? Date.now();
  // An expired entry under the same key is replaced.
  await trx
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', input.userId)
    .where('key', '=', input.key)
    .where('created_at', '<', new Date(now - WINDOW_MS).toISOString())
    .execute();
  await trx
    .insertInto('idempotency_keys')
    .values({
      user_id: input.userId,
      key: input.key,
      request_hash: input.requestHash,
      status_code: input.response.status,
      response: JSON.stringify(input.response.body),
      created_at: new Date(now).toISOString(),
    })
    .execute();
}
