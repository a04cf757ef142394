import net from 'node:net';

/**
 * Top-level names no public resolver answers for: reserved (RFC 2606, RFC 6761, RFC 6762),
 * set aside for private use (`internal`, ICANN 2024), or the local-network conventions a
 * container or home router hands out. Each with what it is, for the message.
 */
const NON_PUBLIC_TLDS: ReadonlyMap<string, string> = new Map([
  ['localhost', 'the loopback name'],
  ['localdomain', 'a local-network name'],
  ['local', 'a multicast-DNS name, known only on the local network'],
  ['internal', 'a private-use name, never in public DNS'],
  ['lan', 'a local-network name'],
  ['home', 'a local-network name'],
  ['corp', 'a private-network name'],
  ['intranet', 'a private-network name'],
  ['private', 'a private-network name'],
  ['arpa', 'an infrastructure name (home.arpa is a local-network one)'],
  ['test', 'reserved for testing'],
  ['invalid', 'reserved as never valid'],
  ['example', 'reserved for documentation'],
  ['onion', 'a Tor name'],
]);

/** A top-level label as the root zone has them: letters, or an IDN's `xn--` form. */
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Why `name` cannot be a public, fully qualified DNS name that receivers on the Internet
 * resolve, or undefined when it can. At least two labels under a public-looking top-level
 * label; not an IP literal; not under a reserved or local-network top-level name. Leading
 * underscore labels (`_spf.` of the SPF include) are service labels below a host: the host
 * under them is what is judged. A trailing dot (the root) is allowed.
 */
export function publicDnsNameProblem(name: string): string | undefined {
  const trimmed = name.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed === '') return 'it is empty';
  const bare = trimmed.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(bare) !== 0) return 'it is an IP address, not a name';
  const labels = trimmed.split('.');
  if (labels.includes('')) return 'it has an empty label';
  while (labels.length > 1 && labels[0]?.startsWith('_')) labels.shift();
  const tld = labels[labels.length - 1] ?? '';
  if (labels.length < 2) return `"${labels.join('.')}" is a single label, not a fully qualified name`;
  const reserved = NON_PUBLIC_TLDS.get(tld);
  if (reserved !== undefined) return `.${tld} is ${reserved}`;
  if (!TLD.test(tld)) return `".${tld}" is not a top-level domain`;
  return undefined;
}
