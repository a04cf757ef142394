import net from 'node:net';

/**
 * The PTR owner name of an address (RFC 1035 §3.5 in-addr.arpa, RFC 3596 §2.5
 * ip6.arpa). An IPv4-mapped IPv6 address is looked up as the IPv4 address.
 */
export function reverseName(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped?.[1] ?? ip;
  const kind = net.isIP(address);
  if (kind === 4) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  if (kind !== 6) throw new Error(`not an IP address: ${ip}`);
  const [head = '', tail] = address.toLowerCase().split('::');
  // A trailing dotted quad (`64:ff9b::192.0.2.1`) is two groups.
  const groups = (s: string): string[] =>
    s === ''
      ? []
      : s.split(':').flatMap((g) => {
          if (!g.includes('.')) return [g];
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const middle: string[] = Array.from({ length: 8 - left.length - right.length }, () => '0');
  const nibbles = [...left, ...middle, ...right].map((g) => g.padStart(4, '0')).join('');
  return `${nibbles.split('').reverse().join('.')}.ip6.arpa`;
}

/** What Haraka records as the client's host name when there is none (connection.js rdns_response). */
export const NO_PTR = 'NXDOMAIN';
export const DNS_ERROR = 'DNSERROR';

export interface PtrResolver {
  resolvePtr(name: string): Promise<string[]>;
}

/**
 * The client's host name from its PTR record, or Haraka's placeholders. A DNS
 * query only: node's `dns.reverse()`, which Haraka uses, answers from
 * /etc/hosts first, so it neither honours DNS_SERVERS for addresses listed
 * there (127.0.0.1 always is) nor is it bounded by our resolver's timeout.
 */
export async function reverseLookup(resolver: PtrResolver, ip: string): Promise<string> {
  try {
    const names = await resolver.resolvePtr(reverseName(ip));
    return names[0]?.replace(/\.$/, '') ?? NO_PTR;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === 'ENOTFOUND' || code === 'ENODATA' ? NO_PTR : DNS_ERROR;
  }
}
