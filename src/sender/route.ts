/**
 * Where the sender delivers a recipient domain's mail (issue 31), as a value: the MX hosts in
 * the order to try, the operator's SMTP_RELAY, or the reason there is nowhere to deliver. The
 * delivery itself is deliver.ts; this file only asks DNS (through DNS_SERVERS) and screens the
 * answers with the outbound guard (src/mta/mx-guard.ts), so the connection goes to exactly the
 * address that was checked, never to a name resolved a second time.
 */
import net from 'node:net';
import type { AddressGuard } from '../mail/address-guard';
import type { DnsLookup, MxRecord } from '../shared/dns-resolver';
import type { MxPath } from '../mta/mx-guard';
import { refusedMxResponse, screenMxTargets } from '../mta/mx-guard';

/** One address to connect to, with the name it came from (the MTA-STS match and TLS name). */
export interface RouteHost {
  /** The MX name (lower-case, no trailing dot), or the relay host as configured. */
  readonly name: string;
  /** IP address for an MX; the relay's host as configured (it may be a name). */
  readonly address: string;
  readonly port: number;
  readonly priority: number;
  /** OUTBOUND_SOURCE_ADDRESS(_V6) of the address's family. */
  readonly localAddress?: string | undefined;
}

/** The operator's smarthost (SMTP_RELAY): trusted, exempt from the guard and from MTA-STS. */
export interface RelaySettings {
  readonly host: string;
  readonly port: number;
  readonly auth?: { readonly user: string; readonly pass: string } | undefined;
  /** Implicit TLS from the first byte (port 465); otherwise STARTTLS when offered. */
  readonly secure?: boolean | undefined;
  /** Refuse to send (defer) unless the session is TLS-protected. */
  readonly requireTls?: boolean | undefined;
}

export type Route =
  | {
      readonly kind: 'mx';
      readonly domain: string;
      readonly hosts: readonly RouteHost[];
      /** No MX record: the domain's own A/AAAA (RFC 5321 §5.1, the implicit MX). */
      readonly implicit: boolean;
      /** Addresses the guard left out, for the log. */
      readonly refused: readonly string[];
    }
  | { readonly kind: 'relay'; readonly host: RouteHost; readonly relay: RelaySettings }
  /** Nowhere to deliver, for good: every recipient of the domain fails at once. */
  | {
      readonly kind: 'fail';
      readonly domain: string;
      /** 5.1.10 null MX (RFC 7505 §3), 5.1.2 no such domain or no address, 5.4.4 every address refused. */
      readonly enhancedStatus: '5.1.10' | '5.1.2' | '5.4.4';
      readonly response: string;
    }
  /** DNS did not answer (SERVFAIL, timeout) or no MX host resolved: try again later. */
  | { readonly kind: 'defer'; readonly domain: string; readonly response: string };

/** The lookups the route needs (src/shared/dns-resolver.ts gives them, through DNS_SERVERS). */
export interface RouteDns {
  mx(name: string): Promise<DnsLookup<MxRecord>>;
  a(name: string): Promise<DnsLookup<string>>;
  aaaa(name: string): Promise<DnsLookup<string>>;
}

export interface RouteDeps {
  readonly dns: RouteDns;
  /** OUTBOUND_ALLOW_PRIVATE / OUTBOUND_ALLOWED_CIDRS (outboundGuardFromConfig). */
  readonly guard: AddressGuard;
  /** OUTBOUND_IPV6, OUTBOUND_SOURCE_ADDRESS(_V6), OUTBOUND_MX_PORT. */
  readonly path: MxPath;
  readonly relay?: RelaySettings | undefined;
  readonly random?: () => number;
}

/**
 * At most this many addresses are tried in one attempt (Postfix's smtp_mx_address_limit is 5):
 * a domain publishing dozens of MX addresses must not hold a delivery for dozens of timeouts.
 */
export const MAX_ROUTE_ADDRESSES = 10;

function hostName(value: string): string {
  return value.trim().toLowerCase().replace(/\.$/, '');
}

function failedLookup(lookup: DnsLookup<unknown>): string | undefined {
  return lookup.status === 'failed' ? `${lookup.reason} (${lookup.code})` : undefined;
}

/** RFC 5321 §5.1: lowest preference first; equal preferences in random order, to spread the load. */
export function orderByPriority<T extends { readonly priority: number }>(
  records: readonly T[],
  random: () => number = Math.random,
): T[] {
  const shuffled = [...records];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as T, shuffled[i] as T];
  }
  // Array#sort is stable: the shuffle decides the order within one preference.
  return shuffled.sort((a, b) => a.priority - b.priority);
}

interface Resolved {
  readonly addresses: string[];
  readonly failure?: string | undefined;
}

/**
 * AAAA then A: IPv6 first where the host has both, as Haraka's outbound did (RFC 6724's default
 * preference); OUTBOUND_IPV6=false is the setting for a host whose IPv6 routes do not work.
 */
async function addressesOf(name: string, deps: RouteDeps): Promise<Resolved> {
  const [v4, v6] = await Promise.all([
    deps.dns.a(name),
    deps.path.ipv6 ? deps.dns.aaaa(name) : Promise.resolve<DnsLookup<string>>({ status: 'nodata' }),
  ]);
  const addresses = [
    ...(v6.status === 'found' ? v6.records : []),
    ...(v4.status === 'found' ? v4.records : []),
  ];
  return { addresses, failure: addresses.length === 0 ? (failedLookup(v4) ?? failedLookup(v6)) : undefined };
}

function onPath(name: string, address: string, priority: number, path: MxPath): RouteHost {
  const localAddress = net.isIPv6(address) ? path.sourceV6 : path.sourceV4;
  return {
    name,
    address,
    port: path.port,
    priority,
    ...(localAddress === undefined ? {} : { localAddress }),
  };
}

export async function resolveRoute(recipientDomain: string, deps: RouteDeps): Promise<Route> {
  const domain = hostName(recipientDomain);
  if (deps.relay !== undefined) {
    const { host, port } = deps.relay;
    return { kind: 'relay', host: { name: host, address: host, port, priority: 0 }, relay: deps.relay };
  }
  const mx = await deps.dns.mx(domain);
  if (mx.status === 'failed') {
    return {
      kind: 'defer',
      domain,
      response: `DNS lookup of the MX of ${domain} failed: ${failedLookup(mx)}`,
    };
  }
  if (mx.status === 'nxdomain') {
    return { kind: 'fail', domain, enhancedStatus: '5.1.2', response: `${domain} does not exist (NXDOMAIN)` };
  }
  // RFC 7505 §3: a single MX with the root as exchange says the domain takes no mail. Node
  // reports the root as ''.
  const records = mx.status === 'found' ? mx.records : [];
  if (records.some((r) => hostName(r.exchange) === '')) {
    return {
      kind: 'fail',
      domain,
      enhancedStatus: '5.1.10',
      response: `${domain} publishes a null MX (RFC 7505): it accepts no mail`,
    };
  }
  const implicit = records.length === 0;
  const exchanges = implicit
    ? [{ exchange: domain, priority: 0 }]
    : orderByPriority(records, deps.random).map((r) => ({
        exchange: hostName(r.exchange),
        priority: r.priority,
      }));

  const targets: { exchange: string; from_dns: string; priority: number }[] = [];
  let failure: string | undefined;
  for (const { exchange, priority } of exchanges) {
    const resolved = await addressesOf(exchange, deps);
    failure ??= resolved.failure;
    for (const address of resolved.addresses)
      targets.push({ exchange: address, from_dns: exchange, priority });
    if (targets.length >= MAX_ROUTE_ADDRESSES) break;
  }
  const { allowed, refused } = screenMxTargets(targets.slice(0, MAX_ROUTE_ADDRESSES), deps.guard);
  if (allowed.length === 0 && refused.length > 0) {
    return { kind: 'fail', domain, enhancedStatus: '5.4.4', response: refusedMxResponse(domain, refused) };
  }
  if (allowed.length === 0) {
    if (failure !== undefined) {
      return {
        kind: 'defer',
        domain,
        response: `DNS lookup of the MX hosts of ${domain} failed: ${failure}`,
      };
    }
    // An implicit MX without an address is RFC 5321 §5.1's "no place to deliver": for good. An
    // MX whose hosts do not resolve may be a passing fault of the receiver: tried again later.
    return implicit
      ? { kind: 'fail', domain, enhancedStatus: '5.1.2', response: `${domain} has no MX and no address` }
      : { kind: 'defer', domain, response: `no MX host of ${domain} resolves to an address` };
  }
  return {
    kind: 'mx',
    domain,
    implicit,
    refused,
    hosts: allowed.map((t) => onPath(t.from_dns, t.exchange, t.priority, deps.path)),
  };
}
