import crypto from 'node:crypto';
import { deriveKey } from './secrets';

/**
 * Secrets at rest (DKIM private keys, later webhook secrets) are sealed with
 * AES-256-GCM under a key derived from SECRET_KEY. The sealed form names the key
 * it was sealed under, so a value sealed under another SECRET_KEY (a restored
 * backup, a changed setting) is named as such, and rotation can be added later
 * without changing the format:
 *
 *   v1.<kid>.<iv>.<tag>.<ciphertext>      (each part base64url)
 *
 * `kid` is an HKDF output of the master secret (not of the data key), so it
 * identifies the master without revealing anything about the key. The
 * additional authenticated data is `v1.<kid>.<context>`: a value sealed for one
 * row (`dkim:dom_1`) does not open for another, and the header cannot be edited.
 *
 * A value whose kid is not the current key's fails with SEAL_UNKNOWN_KEY. (Rotation
 * with previous keys was written and removed unused, issue 18 item 7: nothing
 * configured a previous key and nothing re-sealed; see docs/domains.md.)
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SealErrorCode = 'SEAL_MALFORMED' | 'SEAL_UNKNOWN_KEY' | 'SEAL_TAMPERED';

export class SealError extends Error {
  constructor(
    readonly code: SealErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SealError';
  }
}

export interface Sealer {
  /** The id of the key `seal` uses now. */
  readonly keyId: string;
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export interface SealerOptions {
  readonly secretKey: string;
}

interface SealKey {
  readonly id: string;
  readonly key: Buffer;
}

export function sealKeyId(secretKey: string): string {
  return deriveKey(secretKey, 'seal:key-id', 6).toString('base64url');
}

function sealKey(secretKey: string): SealKey {
  return { id: sealKeyId(secretKey), key: deriveKey(secretKey, 'seal:aes-256-gcm') };
}

function aad(kid: string, context: string): Buffer {
  return Buffer.from(`${VERSION}.${kid}.${context}`, 'utf8');
}

const B64URL = /^[A-Za-z0-9_-]*$/;

function parse(sealed: string): { kid: string; iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const parts = sealed.split('.');
  const [version, kid, iv, tag, ciphertext] = parts;
  if (
    parts.length !== 5 ||
    version !== VERSION ||
    kid === undefined ||
    iv === undefined ||
    tag === undefined ||
    ciphertext === undefined ||
    !parts.every((p) => B64URL.test(p))
  ) {
    throw new SealError('SEAL_MALFORMED', `not a ${VERSION} sealed value`);
  }
  const out = {
    kid,
    iv: Buffer.from(iv, 'base64url'),
    tag: Buffer.from(tag, 'base64url'),
    ciphertext: Buffer.from(ciphertext, 'base64url'),
  };
  if (out.iv.length !== IV_BYTES || out.tag.length !== TAG_BYTES) {
    throw new SealError('SEAL_MALFORMED', 'sealed value has a wrong IV or tag length');
  }
  return out;
}

export function createSealer(options: SealerOptions): Sealer {
  const current = sealKey(options.secretKey);

  return {
    keyId: current.id,

    seal(plaintext, context) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(current.id, context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, current.id, iv, cipher.getAuthTag(), ciphertext]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },

    open(sealed, context) {
      const { kid, iv, tag, ciphertext } = parse(sealed);
      if (kid !== current.id) {
        throw new SealError(
          'SEAL_UNKNOWN_KEY',
          `sealed under key id ${kid}, which is not the current SECRET_KEY's (${current.id})`,
        );
      }
      const decipher = crypto.createDecipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(kid, context));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SealError(
          'SEAL_TAMPERED',
          'sealed value failed authentication (altered, or opened for another context)',
        );
      }
    },
  };
}
