import type { Kysely } from 'kysely';
import type { Database, SendMode } from '../../db/schema';
import { idempotencyKeyReused } from '../emails';
import { validationError } from '../../shared/app-error';
import { apiKeyDomainRestricted } from '../api-keys';

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
 * Who is asking: keys are per account and per mode (a test send never answers a live one,
 * nor the reverse), and a replay answers only a caller allowed to make the original send.
 */
export interface IdempotencyScope {
  readonly mode: SendMode;
  /** The one domain the caller's API key may send from; null when any. */
  readonly onlyDomainId: string | null;
}

/**
 * The key as stored: a live key as the client sent it (as before test mode), a test key
 * after `test ` — a space, which a client's key cannot contain, so the two never meet.
 */
function storedKey(mode: SendMode, key: string): string {
  return mode === 'test' ? `test ${key}` : key;
}

/** The ids a stored 202 names: `{id}` for one send, `{data: [{id}]}` for a batch. */
function sentIds(body: unknown): string[] {
  const b = body as { id?: unknown; data?: readonly { id?: unknown }[] } | null;
  const ids = b?.data ? b.data.map((d) => d.id) : [b?.id];
  return ids.filter((id): id is string => typeof id === 'string');
}

/** A key held to a domain replays only sends from that domain: it could not have made another. */
async function refuseOtherDomain(
  db: Kysely<Database>,
  userId: string,
  onlyDomainId: string,
  body: unknown,
): Promise<void> {
  const ids = sentIds(body);
  if (ids.length === 0) return;
  const other = await db
    .selectFrom('emails as e')
    .innerJoin('domains as d', 'd.id', 'e.domain_id')
    .select(['d.id', 'd.domain'])
    .where('e.user_id', '=', userId)
    .where('e.id', 'in', ids)
    .where('e.domain_id', '!=', onlyDomainId)
    .executeTakeFirst();
  if (other)
    throw apiKeyDomainRestricted(`This API key may not send from ${other.domain}`, {
      domainId: other.id,
      allowedDomainId: onlyDomainId,
    });
}

/**
 * A request repeated with the same key within 24 h gets the original response;
 * the same key with another body is a 409. Older keys are forgotten.
 */
export async function replayIdempotent(
  db: Kysely<Database>,
  userId: string,
  scope: IdempotencyScope,
  key: string,
  requestHash: string,
  now = Date.now(),
): Promise<StoredResponse | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', storedKey(scope.mode, key))
    .executeTakeFirst();
  if (!row || Date.parse(row.created_at) < now - WINDOW_MS) return undefined;
  if (row.request_hash !== requestHash) throw idempotencyKeyReused();
  const body = JSON.parse(row.response) as unknown;
  if (scope.onlyDomainId !== null) await refuseOtherDomain(db, userId, scope.onlyDomainId, body);
  return { status: row.status_code, body };
}

/** Stored in the send transaction, so the key and the message it created commit together. */
export async function storeIdempotent(
  trx: Kysely<Database>,
  input: {
    userId: string;
    mode: SendMode;
    key: string;
    requestHash: string;
    response: StoredResponse;
    now?: number;
  },
): Promise<void> {
  const now = input.now ?? Date.now();
  const key = storedKey(input.mode, input.key);
  // An expired entry under the same key is replaced.
  await trx
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', input.userId)
    .where('key', '=', key)
    .where('created_at', '<', new Date(now - WINDOW_MS).toISOString())
    .execute();
  await trx
    .insertInto('idempotency_keys')
    .values({
      user_id: input.userId,
      key,
      request_hash: input.requestHash,
      status_code: input.response.status,
      response: JSON.stringify(input.response.body),
      created_at: new Date(now).toISOString(),
    })
    .execute();
}
