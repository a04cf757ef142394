import crypto from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

function encode(bytes: Uint8Array, chars: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET.charAt((value << (5 - bits)) & 31);
  return out.slice(0, chars);
}

/**
 * A ULID-style identifier: 48-bit millisecond time then 80 random bits, base32.
 * Ids sort by creation time (monotonic within a process), which keeps cursors
 * and primary-key indexes append-only.
 */
export function sortableId(now = Date.now()): string {
  let random: Uint8Array;
  if (now <= lastTime) {
    random = Uint8Array.from(lastRandom);
    for (let i = random.length - 1; i >= 0; i--) {
      random[i] = ((random[i] ?? 0) + 1) & 0xff;
      if (random[i] !== 0) break;
    }
    now = lastTime;
  } else {
    random = crypto.randomBytes(10);
  }
  lastTime = now;
  lastRandom = random;
  const time = new Uint8Array(6);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    time[i] = t % 256;
    t = Math.floor(t / 256);
  }
  return encode(time, 10) + encode(random, 16);
}

export type IdPrefix =
  | 'usr'
  | 'key'
  | 'dom'
  | 'email'
  | 'rcpt'
  | 'evt'
  | 'job'
  | 'aud'
  | 'sup'
  | 'whk'
  | 'whd'
  | 'inb'
  | 'att'
  | 'quo'
  | 'obx';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${sortableId()}`;
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
