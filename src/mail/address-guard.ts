import net from 'node:net';
import type { Cidr } from '../config/config-table';

/**
 * The SSRF guard's view of an IP address. Webhook URLs are chosen by customers,
 * so without a guard the appliance would POST into its own host and network
 * (the admin port, the MTA, a cloud metadata service) on their behalf.
 */
export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'documentation'
  | 'benchmarking'
  | 'unspecified'
  | 'metadata'
  | 'multicast'
  | 'reserved';

/** Opened by WEBHOOK_ALLOW_PRIVATE. The rest are never a receiver (or are a metadata service) and need an explicit CIDR. */
const PRIVATE_KINDS: ReadonlySet<AddressCategory> = new Set([
  'loopback',
  'private',
  'link-local',
  'cgnat',
  'unique-local',
  'documentation',
  'benchmarking',
]);

type Range = readonly [network: string, prefix: number, category: AddressCategory];

// First match wins, so the narrow entries (metadata inside link-local or CGNAT) come first.
// IANA special-purpose registries (RFC 6890 and updates).
const V4: readonly Range[] = [
  ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack …
  ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
  ['0.0.0.0', 8, 'unspecified'], // "this network"; connecting to 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'private'], // RFC 1918
  ['100.64.0.0', 10, 'cgnat'], // RFC 6598
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // RFC 3927
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'documentation'], // RFC 5737
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'], // RFC 2544
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes the limited broadcast 255.255.255.255
];

const V6: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1)
  ['64:ff9b:1::', 48, 'private'], // local-use NAT64 (RFC 8215)
  ['100::', 64, 'reserved'], // discard-only (RFC 6666)
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 23, 'reserved'], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2002::', 16, 'reserved'], // 6to4: the embedded IPv4 address could be anything
  ['3fff::', 20, 'documentation'], // RFC 9637
  ['5f00::', 16, 'reserved'], // SRv6 SIDs
  ['fd00:ec2::254', 128, 'metadata'], // AWS over IPv6
  ['fc00::', 7, 'unique-local'], // RFC 4193
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

interface CompiledRange {
  readonly list: net.BlockList;
  readonly category: AddressCategory;
}

function compile(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): CompiledRange[] {
  return ranges.map(([network, prefix, category]) => {
    const list = new net.BlockList();
    list.addSubnet(network, prefix, family);
    return { list, category };
  });
}

const COMPILED = { ipv4: compile(V4, 'ipv4'), ipv6: compile(V6, 'ipv6') };

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted quad folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  // The part after the last ":"; an unanchored /(\d+\.…)$/ rescanned digit runs from every offset.
  const quad = /^(\d+\.\d+\.\d+\.\d+)$/.exec(text.slice(text.lastIndexOf(':') + 1));
  if (quad?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = quad[1].split('.').map(Number);
    text = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 one stands for, when connecting to it reaches that
 * IPv4 host: IPv4-mapped (`::ffff:a.b.c.d`, which the kernel connects over
 * IPv4), IPv4-translated (`::ffff:0:a.b.c.d`, RFC 2765 SIIT: missed before issue
 * 17, finding 9) and the well-known NAT64 prefix (`64:ff9b::/96`, RFC 6052),
 * whose gateway forwards to it. The other IPv6 forms that embed an IPv4 address
 * (IPv4-compatible `::/96`, 6to4 `2002::/16`, Teredo `2001::/32`, local-use
 * NAT64 `64:ff9b:1::/48`) are whole special-purpose ranges below, refused
 * unless the operator lists them.
 */
export function embeddedIpv4(address: string): string | undefined {
  if (!net.isIPv6(address)) return undefined;
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !translated && !nat64) return undefined;
  const hi = g[6] ?? 0;
  const lo = g[7] ?? 0;
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** What kind of address `ip` is; anything not in a special-purpose range is `public`. */
export function classifyAddress(ip: string): AddressCategory {
  const v4 = embeddedIpv4(ip);
  if (v4 !== undefined) return classifyAddress(v4);
  const family = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : undefined;
  if (family === undefined) throw new TypeError(`not an IP address: ${ip}`);
  return COMPILED[family].find((r) => r.list.check(ip, family))?.category ?? 'public';
}

export interface AddressPolicy {
  /** WEBHOOK_ALLOW_PRIVATE, OUTBOUND_ALLOW_PRIVATE */
  readonly allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_CIDRS, OUTBOUND_ALLOWED_CIDRS */
  readonly allowedCidrs: readonly Cidr[];
  /** The settings a refusal names as the way to open it (default: the webhook ones). */
  readonly settings?: { readonly allowPrivate: string; readonly allowedCidrs: string } | undefined;
}

export type AddressVerdict =
  | { readonly allowed: true; readonly category: AddressCategory }
  | { readonly allowed: false; readonly category: AddressCategory; readonly reason: string };

export interface AddressGuard {
  check(ip: string): AddressVerdict;
}

/** The guard for one configuration: public addresses pass; the rest only as the operator opened them. */
export function createAddressGuard(policy: AddressPolicy): AddressGuard {
  const settings = policy.settings ?? {
    allowPrivate: 'WEBHOOK_ALLOW_PRIVATE',
    allowedCidrs: 'WEBHOOK_ALLOWED_CIDRS',
  };
  const allowed = new net.BlockList();
  for (const c of policy.allowedCidrs) allowed.addSubnet(c.address, c.prefix, c.family);
  return {
    check(ip) {
      const category = classifyAddress(ip);
      if (category === 'public') return { allowed: true, category };
      const plain = embeddedIpv4(ip) ?? ip;
      if (allowed.check(plain, net.isIPv4(plain) ? 'ipv4' : 'ipv6')) return { allowed: true, category };
      if (policy.allowPrivate && PRIVATE_KINDS.has(category)) return { allowed: true, category };
      const hint = PRIVATE_KINDS.has(category)
        ? `${settings.allowPrivate} or ${settings.allowedCidrs} opens it`
        : `only ${settings.allowedCidrs} opens it`;
      return { allowed: false, category, reason: `${ip} is a ${category} address (${hint})` };
    },
  };
}

/** The guard the operator configured (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOWED_CIDRS). */
export function guardFromConfig(config: {
  readonly webhookAllowPrivate: boolean;
  readonly webhookAllowedCidrs?: readonly Cidr[] | undefined;
}): AddressGuard {
  return createAddressGuard({
    allowPrivate: config.webhookAllowPrivate,
    allowedCidrs: config.webhookAllowedCidrs ?? [],
  });
}

/**
 * The guard on the addresses outbound mail connects to (OUTBOUND_ALLOW_PRIVATE,
 * OUTBOUND_ALLOWED_CIDRS): the same classification as the webhooks', with its own
 * settings, because reaching an internal receiver over HTTPS and over port 25 are
 * different decisions (issue 17, finding 9).
 */
export function outboundGuardFromConfig(config: {
  readonly outboundAllowPrivate: boolean;
  readonly outboundAllowedCidrs?: readonly Cidr[] | undefined;
}): AddressGuard {
  return createAddressGuard({
    allowPrivate: config.outboundAllowPrivate,
    allowedCidrs: config.outboundAllowedCidrs ?? [],
    settings: { allowPrivate: 'OUTBOUND_ALLOW_PRIVATE', allowedCidrs: 'OUTBOUND_ALLOWED_CIDRS' },
  });
}
