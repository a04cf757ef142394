import crypto from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPair = promisify(crypto.generateKeyPair);

const SELECTOR_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const SELECTOR_RANDOM = 6;

/** `mr` + year and month of issue + 6 random base32 characters, e.g. `mr202507k3f9qx`. */
export const SELECTOR_LENGTH = 2 + 6 + SELECTOR_RANDOM;

/**
 * The DKIM selector of a new key. The month tells operators how old a key is when
 * rotating; the random part makes every key's name unique, so two accounts adding
 * the same domain (or a domain deleted and added again) never compete for one
 * DNS name, and a stale record can never verify a new key.
 */
export function newDkimSelector(now: Date = new Date()): string {
  const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  // 32 symbols: masking a byte to 5 bits keeps every symbol equally likely.
  const random = [...crypto.randomBytes(SELECTOR_RANDOM)]
    .map((b) => SELECTOR_ALPHABET.charAt(b & 31))
    .join('');
  return `mr${month}${random}`;
}

export interface DkimKeyPair {
  /** Base64 of the SubjectPublicKeyInfo DER: the `p=` tag of the DNS record (RFC 6376 §3.6.1). */
  readonly publicKey: string;
  /** PKCS#8 PEM; seal it before it goes anywhere. */
  readonly privateKeyPem: string;
}

/** A dedicated 2048-bit RSA key (RFC 8301 §3.2 minimum 1024, 2048 recommended); generated off the event loop. */
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKeyPem: privateKey };
}

/**
 * The DER SubjectPublicKeyInfo of a `p=` value, accepting the PKCS#1 form some
 * tools publish; undefined when it is not an RSA/EC/Ed25519 public key at all.
 */
export function publicKeyDer(base64: string): Buffer | undefined {
  const der = Buffer.from(base64, 'base64');
  if (der.length === 0) return undefined;
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      return crypto
        .createPublicKey({ key: der, format: 'der', type })
        .export({ type: 'spki', format: 'der' });
    } catch {
      // try the next encoding
    }
  }
  return undefined;
}
