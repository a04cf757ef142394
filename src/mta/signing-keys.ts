import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { dkimSealContext } from '../modules/domains/domains.usecases';
import type { Sealer } from '../shared/seal';
import type { DkimSigningKey } from '../mail/dkim-sign';
import { findSigningDomain } from './signing-key.repository';

export type SigningKeyLookup =
  | { readonly kind: 'found'; readonly key: DkimSigningKey }
  /** No email row with this id: nothing of ours, and it will not appear later. */
  | { readonly kind: 'unknown-email' }
  /** The key exists but cannot be used now (database error, SECRET_KEY mismatch …). */
  | { readonly kind: 'unavailable'; readonly reason: string };

export interface SigningKeys {
  lookup(emailId: string): Promise<SigningKeyLookup>;
}

interface CachedKey {
  readonly sealedKey: string;
  readonly key: DkimSigningKey;
  readonly expiresAt: number;
}

export interface SigningKeysDeps {
  readonly db: Kysely<Database>;
  readonly sealer: Sealer;
  /** How long an unsealed key stays in memory; 0 disables the cache. */
  readonly cacheMs?: number;
  readonly now?: () => number;
}

/** Unsealed keys are kept briefly: a burst to one domain unseals once, and a key does not linger in the heap. */
export const KEY_CACHE_MS = 60_000;

/**
 * The DKIM key of an email's sending domain, unsealed exactly as the domains
 * module sealed it (context `dkim:<domain id>`). The email → domain row is read
 * every time (one primary-key lookup); the unsealed key and its parsed KeyObject
 * are cached per domain and dropped as soon as the sealed value in the row changes
 * (rotation), or after KEY_CACHE_MS.
 */
export function createSigningKeys(deps: SigningKeysDeps): SigningKeys {
  const cacheMs = deps.cacheMs ?? KEY_CACHE_MS;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, CachedKey>();
  let sweptAt = now();
  // Keys of domains that stopped sending must not stay in memory either.
  const sweep = (): void => {
    if (now() - sweptAt < cacheMs) return;
    sweptAt = now();
    for (const [domainId, entry] of cache) if (entry.expiresAt <= sweptAt) cache.delete(domainId);
  };

  return {
    async lookup(emailId) {
      sweep();
      let row;
      try {
        row = await findSigningDomain(deps.db, emailId);
      } catch (err) {
        return {
          kind: 'unavailable',
          reason: `database: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
      if (row === undefined) return { kind: 'unknown-email' };

      const cached = cache.get(row.domainId);
      if (cached !== undefined && cached.sealedKey === row.sealedKey && cached.expiresAt > now()) {
        return { kind: 'found', key: cached.key };
      }
      cache.delete(row.domainId);

      let privateKeyPem: string;
      let privateKey: crypto.KeyObject;
      try {
        privateKeyPem = deps.sealer.open(row.sealedKey, dkimSealContext(row.domainId));
        // Parsed once here, so that a damaged key fails the lookup, not the signing, and
        // kept parsed with the PEM: every message signed with it skips the parsing.
        privateKey = crypto.createPrivateKey(privateKeyPem);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        return {
          kind: 'unavailable',
          reason: `DKIM key of ${row.domain} unusable${typeof code === 'string' ? ` (${code})` : ''}`,
        };
      }
      const key: DkimSigningKey = { domain: row.domain, selector: row.selector, privateKeyPem, privateKey };
      if (cacheMs > 0) cache.set(row.domainId, { sealedKey: row.sealedKey, key, expiresAt: now() + cacheMs });
      return { kind: 'found', key };
    },
  };
}
