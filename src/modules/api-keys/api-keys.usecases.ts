import type { Kysely } from 'kysely';
import type { ApiKeyPermission, Database, SendMode } from '../../db/schema';
import { defineError } from '../../shared/app-error';
import { isoNow } from '../../shared/clock';
import { newId, randomToken } from '../../shared/ids';
import { safeEqual, sha256Hex } from '../../shared/secrets';
import type { Actor } from '../audit';
import { recordAudit } from '../audit';
import type { ApiKeyRow } from './api-keys.repository';
import * as keys from './api-keys.repository';
import { findDomain } from '../domains';
import { domainNotFound } from '../domains';

export const API_KEY_PREFIX = 're_live_';
/** Test-mode keys (issue 21): their mail runs the whole pipeline and ends in the capture. */
export const TEST_API_KEY_PREFIX = 're_test_';
const KEY_PREFIXES: Record<SendMode, string> = { live: API_KEY_PREFIX, test: TEST_API_KEY_PREFIX };
/** Both prefixes have the same length: the shown part is the prefix and four characters. */
const PREFIX_SHOWN = API_KEY_PREFIX.length + 4;

/**
 * The FORBIDDEN message of key management called with an API key (spec, Authentication 3):
 * a key of any permission or mode, so a leaked or test key never mints a live one.
 */
export const KEY_MANAGEMENT_REFUSAL =
  'Creating or revoking API keys requires a session token: an API key cannot create or revoke API keys';

export const apiKeyNotFound = defineError('API_KEY_NOT_FOUND', 404, 'No such API key');
export const apiKeyDomainRestricted = defineError(
  'API_KEY_DOMAIN_RESTRICTED',
  403,
  'This API key may only send from the domain it is restricted to',
);

export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly mode: string;
  readonly keyPrefix: string;
  readonly permission: ApiKeyPermission;
  readonly domainId: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

/** What creating a key takes (POST /v1/api-keys, and the Resend surface's). */
export interface CreateApiKeyInput {
  readonly name: string;
  readonly mode: SendMode;
  readonly permission: ApiKeyPermission;
  /** Only with `sending_access`: the one domain of the account the key may send from. */
  readonly domainId?: string | undefined;
}

export interface CreatedApiKey {
  readonly id: string;
  readonly name: string;
  readonly mode: string;
  readonly keyPrefix: string;
  readonly permission: ApiKeyPermission;
  readonly domainId: string | null;
  readonly token: string;
  readonly warning: string;
  readonly createdAt: string;
}

export function apiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    keyPrefix: row.key_prefix,
    permission: row.permission,
    domainId: row.domain_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export function isApiKeyToken(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX) || token.startsWith(TEST_API_KEY_PREFIX);
}

/** A key row's mode; anything but `test` is live (rows before issue 21 all say `live`). */
export function keyMode(row: Pick<ApiKeyRow, 'mode'>): SendMode {
  return row.mode === 'test' ? 'test' : 'live';
}

export async function createApiKey(deps: {
  db: Kysely<Database>;
  userId: string;
  actor: Actor;
  input: CreateApiKeyInput;
}): Promise<CreatedApiKey> {
  const domainId = deps.input.domainId ?? null;
  if (domainId !== null && !(await findDomain(deps.db, deps.userId, domainId))) {
    throw domainNotFound(undefined, { domainId });
  }
  const token = `${KEY_PREFIXES[deps.input.mode]}${randomToken(32)}`;
  const row: ApiKeyRow = {
    id: newId('key'),
    user_id: deps.userId,
    name: deps.input.name,
    mode: deps.input.mode,
    key_prefix: token.slice(0, PREFIX_SHOWN),
    key_hash: sha256Hex(token),
    created_at: isoNow(),
    last_used_at: null,
    revoked_at: null,
    permission: deps.input.permission,
    domain_id: domainId,
  };
  await deps.db.transaction().execute(async (trx) => {
    await keys.insertApiKey(trx, row);
    await recordAudit(trx, {
      actor: deps.actor,
      userId: deps.userId,
      action: 'api_key.created',
      resource: 'api_key',
      resourceId: row.id,
      details: {
        name: row.name,
        mode: row.mode,
        keyPrefix: row.key_prefix,
        permission: row.permission,
        domainId,
      },
    });
  });
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    keyPrefix: row.key_prefix,
    permission: row.permission,
    domainId,
    token,
    warning: 'Store this key now: it is shown only once and cannot be recovered.',
    createdAt: row.created_at,
  };
}

export async function revokeApiKey(deps: {
  db: Kysely<Database>;
  userId: string;
  actor: Actor;
  keyId: string;
}): Promise<ApiKeyView> {
  const { db, userId, keyId } = deps;
  const existing = await keys.findKey(db, userId, keyId);
  if (!existing) throw apiKeyNotFound();
  await db.transaction().execute(async (trx) => {
    if (await keys.revokeKey(trx, userId, keyId, isoNow())) {
      await recordAudit(trx, {
        actor: deps.actor,
        userId,
        action: 'api_key.revoked',
        resource: 'api_key',
        resourceId: keyId,
      });
    }
  });
  const row = await keys.findKey(db, userId, keyId);
  if (!row) throw apiKeyNotFound();
  return apiKeyView(row);
}

const TOUCH_EVERY_MS = 60_000;

/**
 * When this process last wrote each key's `last_used_at`. `lastUsedAt` is refreshed
 * at most once a minute (docs/api.md), so a request within the minute skips the
 * UPDATE altogether instead of running one that changes nothing (issue 11: it was
 * a write statement on every request). Forgetting is harmless: the UPDATE's own
 * condition still holds writes to one a minute.
 */
const touchedAt = new Map<string, number>();

/** Finds the live key a bearer token names; the hash is looked up, then compared in constant time. */
export async function authenticateApiKey(
  db: Kysely<Database>,
  token: string,
): Promise<ApiKeyRow | undefined> {
  const hash = sha256Hex(token);
  const row = await keys.findActiveKeyByHash(db, hash);
  if (!row || !safeEqual(row.key_hash, hash)) return undefined;
  const now = Date.now();
  if (now - (touchedAt.get(row.id) ?? -Infinity) >= TOUCH_EVERY_MS) {
    if (touchedAt.size >= 10_000) touchedAt.clear();
    touchedAt.set(row.id, now);
    await keys.touchKey(
      db,
      row.id,
      new Date(now).toISOString(),
      new Date(now - TOUCH_EVERY_MS).toISOString(),
    );
  }
  return row;
}
