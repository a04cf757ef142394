/**
 * DKIM signing in the sender (issue 31): once per message, before it is handed to the recipient
 * domains' transactions, with src/mail/dkim-sign.ts (mailauth's signer, relaxed/relaxed rsa-sha256,
 * the over-signed header list) exactly as mailroom-dkim signs for Haraka today. The private key is
 * parsed once per key version and kept parsed (RFC 8017 precomputations included) until the domain's
 * key changes: parsing it per message was a sizeable share of the signing's CPU (bench/RESULTS.md).
 */
import crypto from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { dkimSignatureValue } from '../mail/dkim-sign';

/** The sending domain's key as the caller unsealed it (never logged). */
export interface SenderDkimKey {
  /** d=: lower-case A-labels. */
  readonly domain: string;
  /** s=. */
  readonly selector: string;
  /** PKCS#8 PEM. */
  readonly privateKeyPem: string;
  /**
   * What changes when the key does (the sealed value's digest, a rotation id): a new version
   * is parsed anew, the old one dropped.
   */
  readonly version: string;
}

interface Parsed {
  readonly version: string;
  readonly key: KeyObject;
}

/** Parsed keys, one per signing domain and selector: at most the current version of each. */
export class DkimKeyCache {
  private readonly parsed = new Map<string, Parsed>();
  /** Keys parsed so far (for tests and metrics). */
  parses = 0;

  keyOf(key: SenderDkimKey): KeyObject {
    const slot = `${key.domain}\0${key.selector}`;
    const cached = this.parsed.get(slot);
    if (cached?.version === key.version) return cached.key;
    let parsed: KeyObject;
    try {
      parsed = crypto.createPrivateKey(key.privateKeyPem);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new Error(`DKIM key of ${key.domain} unusable${typeof code === 'string' ? ` (${code})` : ''}`, {
        cause: err,
      });
    }
    this.parses++;
    this.parsed.set(slot, { version: key.version, key: parsed });
    return parsed;
  }

  /** A domain that stopped sending (or was deleted) leaves no key in memory. */
  forget(domain: string): void {
    for (const slot of this.parsed.keys()) if (slot.startsWith(`${domain}\0`)) this.parsed.delete(slot);
  }

  get size(): number {
    return this.parsed.size;
  }
}

/**
 * The message with its DKIM-Signature field first (RFC 6376 §5.6: prepended). `message` is the
 * whole message as it will be sent: CRLF line ends, not dot-stuffed. Throws when it cannot be
 * signed (no From, unusable key): the caller fails the message rather than send it unsigned.
 */
export async function signMessage(message: Buffer, key: SenderDkimKey, cache: DkimKeyCache): Promise<Buffer> {
  const value = await dkimSignatureValue(message, {
    domain: key.domain,
    selector: key.selector,
    privateKeyPem: key.privateKeyPem,
    privateKey: cache.keyOf(key),
  });
  return Buffer.concat([Buffer.from(`DKIM-Signature: ${value}\r\n`), message]);
}
