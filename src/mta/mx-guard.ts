import net from 'node:net';
import type { AddressGuard } from '../modules/webhooks/address-policy';

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
