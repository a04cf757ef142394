import crypto from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** Bytes as Crockford base32 (lower case), cut to `chars` characters. */
export function base32(bytes: Uint8Array, chars: number): string {
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
 * Within one millisecond the 80 random bits are a 16-bit sequence followed by 64
 * fresh random bits. The sequence keeps ids strictly increasing within a process
 * (recipients, events and outbox rows are read back in id order as their creation
 * order); it starts at a random value below 2^15 each millisecond, so it never
 * runs out before 32 768 ids in one millisecond. The fresh bits make an id
 * unpredictable from its neighbour: issue 17, finding 3 (ids made in one
 * millisecond used to differ by one, so a visible email id gave away the next).
 */
const SEQUENCE_START_MAX = 1 << 15;
const SEQUENCE_MAX = 0xffff;

let lastTime = 0;
let lastSequence = 0;

function sequenceFor(now: number): { time: number; sequence: number } {
  if (now > lastTime) return { time: now, sequence: crypto.randomInt(SEQUENCE_START_MAX) };
  // The same millisecond (or a clock that stepped back): continue after the last id,
  // borrowing the next millisecond in the rare case the sequence is spent.
  if (lastSequence < SEQUENCE_MAX) return { time: lastTime, sequence: lastSequence + 1 };
  return { time: lastTime + 1, sequence: crypto.randomInt(SEQUENCE_START_MAX) };
}

/**
 * A ULID-style identifier: 48-bit millisecond time then 80 bits (see above), base32.
 * Ids sort by creation time (strictly increasing within a process), which keeps
 * cursors and primary-key indexes append-only.
 */
export function sortableId(now = Date.now()): string {
  const { time: at, sequence } = sequenceFor(now);
  lastTime = at;
  lastSequence = sequence;
  const random = new Uint8Array(10);
  random[0] = sequence >>> 8;
  random[1] = sequence & 0xff;
  random.set(crypto.randomBytes(8), 2);
  const time = new Uint8Array(6);
  let t = at;
  for (let i = 5; i >= 0; i--) {
    time[i] = t % 256;
    t = Math.floor(t / 256);
  }
  return base32(time, 10) + base32(random, 16);
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
  | 'obx'
  | 'dsc'
  | 'raw'
  | 'inv';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${sortableId()}`;
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
