// Finding RFC 5321 mailbox addresses in free text and header values.
import { trimEndChars, trimStartChars } from '../../shared/text';

// Local part (dot-atom, RFC 5322 §3.4.1) "@" domain with at least one dot; no IP literals.
// The look-behind pins the start to a word boundary, which keeps matching linear on long runs of
// letters that contain no "@".
const ADDRESS_SOURCE = String.raw`(?<![\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~.-])[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;

export function addressPattern(): RegExp {
  return new RegExp(ADDRESS_SOURCE, 'gu');
}

/** Lower-cases the domain and strips the brackets and punctuation an MTA put around an address. */
export function normaliseAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  // Linear trims: `/'+$/` and `/\.+$/` rescanned long runs from every offset (issue 17 finding 2).
  const local = trimEndChars(trimStartChars(address.slice(0, at), "'`=/|{}~-"), "'");
  return `${local}@${trimEndChars(address.slice(at + 1).toLowerCase(), '.')}`;
}

/** The first address in `text` (e.g. a Final-Recipient value), or null. */
export function extractAddress(text: string): string | null {
  if (!text.includes('@')) return null;
  const m = addressPattern().exec(text);
  return m === null ? null : normaliseAddress(m[0]);
}

/** Every address in `text`, in order, with its offset. */
export function findAddresses(text: string): { address: string; index: number }[] {
  const out: { address: string; index: number }[] = [];
  // Most lines of a report name no address; skip the pattern's setup for them.
  if (!text.includes('@')) return out;
  const re = addressPattern();
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ address: normaliseAddress(m[0]), index: m.index });
  }
  return out;
}

/** Addresses of a header value such as To: or Cc:, in order. */
export function headerAddresses(value: string | null): string[] {
  return value === null ? [] : findAddresses(value).map((a) => a.address);
}

/** Case-insensitive comparison key of an address. */
export function addressKey(address: string): string {
  return address.toLowerCase();
}
