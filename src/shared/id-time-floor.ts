const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The smallest id `newId(prefix)` could have made at `ms`: the prefix and the
 * 10-character time part of shared/ids.ts's sortableId (48-bit milliseconds,
 * Crockford base32, padded to 50 bits). Every id made before `ms` sorts below it.
 * Computed here rather than through sortableId, which is monotonic per process
 * and would not go back in time.
 */
export function idTimeFloor(prefix: string, ms: number): string {
  let value = BigInt(Math.max(0, Math.floor(ms))) << 2n;
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET.charAt(Number(value & 31n)) + time;
    value >>= 5n;
  }
  return `${prefix}_${time}`;
}
