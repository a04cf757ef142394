import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// OWASP's scrypt floor (N=2^17, r=8, p=1) needs 128 MiB (128·N·r bytes) and four times
// the CPU of N=2^15 for every login; N=2^15 keeps a login cheap on a small appliance
// while staying well above legacy defaults.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 } as const;

/** `scrypt$N$r$p$salt$hash`, parameters kept so they can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFKC'), salt, SCRYPT.keylen, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(
    password.normalize('NFKC'),
    Buffer.from(salt, 'base64url'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: SCRYPT.maxmem,
    },
  );
  return crypto.timingSafeEqual(actual, expected);
}

/** A password hash to compare against when the account does not exist, so timing does not reveal it. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  return decoyHash;
}

export function sha256Hex(value: string | Buffer): string {
  // The one-shot form: no Hash object per call (every API request hashes its key).
  return crypto.hash('sha256', value, 'hex');
}

/** Constant-time string equality (length is not secret here: tokens have fixed shapes). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}

/** A purpose-bound subkey of the master secret (HKDF-SHA256), so one leak does not expose the others. */
export function deriveKey(masterSecret: string, purpose: string, length = 32): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterSecret, 'mailroom', purpose, length));
}
