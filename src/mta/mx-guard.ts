import net from 'node:net';
import type { AddressGuard } from '../mail/address-guard';

/**
 * Where Haraka would connect for one MX: `exchange` is the IP address once the MX
 * host was resolved (haraka-net-utils' resolve_mx_hosts), `from_dns` the name it
 * came from.
 */
export interface MxTarget {
  readonly exchange?: string | undefined;
  readonly from_dns?: string | undefined;
}

export interface MxScreening<T extends MxTarget> {
  /** The targets Haraka may connect to, in the order given. */
  readonly allowed: T[];
  /** Why each other one was left out. */
  readonly refused: readonly string[];
}

/**
 * Issue 17, finding 9: the recipient's domain is chosen by whoever sends (or by a
 * customer's own DNS), so an MX pointing at 10.x or 127.x would have the MTA
 * open port 25 inside the operator's network. Each resolved address goes through
 * the outbound guard before Haraka sees it; a target that is not an IP address
 * (a name that was not resolved, a socket path) is refused too: Haraka would
 * resolve or open it after this check.
 */
export function screenMxTargets<T extends MxTarget>(
  targets: readonly T[],
  guard: AddressGuard,
): MxScreening<T> {
  const allowed: T[] = [];
  const refused: string[] = [];
  for (const target of targets) {
    const ip = target.exchange ?? '';
    const via = target.from_dns !== undefined && target.from_dns !== ip ? `${target.from_dns} ` : '';
    if (net.isIP(ip) === 0) {
      refused.push(`${via}${ip === '' ? '(no address)' : ip} is not an IP address`);
      continue;
    }
    const verdict = guard.check(ip);
    if (verdict.allowed) allowed.push(target);
    else refused.push(`${via}${verdict.reason}`);
  }
  return { allowed, refused };
}

/** The recipient's permanent failure when every address of every MX was refused. */
export function refusedMxResponse(domain: string, refused: readonly string[]): string {
  const shown = refused.slice(0, 3).join('; ');
  const more = refused.length > 3 ? `; and ${refused.length - 3} more` : '';
  return `Not delivered: the MX of ${domain} resolves to a private address, which this appliance does not connect to (${shown}${more})`;
}

/** Haraka's MX functions (haraka-net-utils `get_mx`, `resolve_mx_hosts`): the instance Haraka uses. */
export interface MxLookup {
  get_mx(domain: string): Promise<(MxTarget & { readonly priority: number })[]>;
  resolve_mx_hosts<T extends MxTarget>(mxs: readonly T[]): Promise<T[]>;
}

/**
 * What mailroom-outbound's `get_mx` answers when no SMTP_RELAY is set, as a value:
 * - `haraka`: no MX and no address, or RFC 7505's null MX: Haraka's own lookup
 *   answers (its bounce texts), as before;
 * - `deliver`: the allowed addresses, sorted by MX preference (Haraka does not sort
 *   what a plugin returns; RFC 5321 §5.1), each keeping `from_dns`; none at all
 *   (no MX host resolved) is Haraka's "Tried all MXs" deferral, as before;
 * - `refuse`: every address was refused; the recipients fail with `response`.
 * A failed lookup rejects: the caller leaves it to Haraka's lookup, which
 * classifies the error itself (no such domain, DNS failure).
 */
export type MxRoute<T extends MxTarget> =
  | { readonly kind: 'haraka' }
  | { readonly kind: 'deliver'; readonly targets: T[]; readonly refused: readonly string[] }
  | { readonly kind: 'refuse'; readonly response: string; readonly refused: readonly string[] };

/**
 * How Haraka reaches an allowed address: OUTBOUND_IPV6, OUTBOUND_SOURCE_ADDRESS(_V6) and the
 * test-only OUTBOUND_MX_PORT. The default is RFC 5321's: both families, port 25, the source
 * address the system picks.
 */
export interface MxPath {
  readonly ipv6: boolean;
  readonly port: number;
  readonly sourceV4?: string | undefined;
  readonly sourceV6?: string | undefined;
}

export const DEFAULT_MX_PATH: MxPath = { ipv6: true, port: 25 };

/** A target as handed to Haraka: `port` and `bind` (the local address) are HarakaMx fields. */
export type MxHop = MxTarget & { readonly priority: number; readonly port?: number; readonly bind?: string };

/** Adds the port and, for a host with several addresses, the source address of the target's family. */
function onPath<T extends MxTarget & { readonly priority: number }>(target: T, path: MxPath): T & MxHop {
  const bind = net.isIPv6(target.exchange ?? '') ? path.sourceV6 : path.sourceV4;
  return { ...target, port: path.port, ...(bind === undefined ? {} : { bind }) };
}

export async function routeToMx(
  domain: string,
  lookup: MxLookup,
  guard: AddressGuard,
  path: MxPath = DEFAULT_MX_PATH,
): Promise<MxRoute<MxHop>> {
  const exchanges = await lookup.get_mx(domain);
  if (exchanges.length === 0 || (exchanges.length === 1 && exchanges[0]?.exchange === '')) {
    return { kind: 'haraka' };
  }
  const sorted = [...exchanges].sort((a, b) => a.priority - b.priority);
  const resolved = await lookup.resolve_mx_hosts(sorted);
  // OUTBOUND_IPV6=false: a host without IPv6 routes would wait on every AAAA address first.
  const usable = path.ipv6 ? resolved : resolved.filter((t) => !net.isIPv6(t.exchange ?? ''));
  const { allowed, refused } = screenMxTargets(usable, guard);
  if (allowed.length === 0 && refused.length > 0) {
    return { kind: 'refuse', response: refusedMxResponse(domain, refused), refused };
  }
  return { kind: 'deliver', targets: allowed.map((t) => onPath(t, path)), refused };
}
