import os from 'node:os';
import type { Config } from '../../config';
import { isPublicIp } from '../../shared/public-ip';
import type { CheckResult, CheckStatus } from './check-result';
import { result } from './check-result';
import type { Dns } from './dns-check';
import { lookup } from './dns-check';

export { isPublicIp };

export interface PtrLookup {
  readonly ip: string;
  /** Names found; empty when none. */
  readonly names: readonly string[];
  /** Why there are no names: `nxdomain`, `nodata`, or a failure reason. */
  readonly problem?: string;
}

const norm = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/**
 * Reverse DNS vs MAIL_HOSTNAME (forward-confirmed reverse DNS): receivers check
 * that the connecting IP's PTR names a host whose A/AAAA leads back to that IP,
 * and often that it matches the HELO name (MAIL_HOSTNAME). Hints only.
 */
export function evaluateReverseDns(input: {
  readonly mailHostname: string;
  /** A and AAAA of MAIL_HOSTNAME. */
  readonly forward: readonly string[];
  /** Public addresses of this host (interfaces, --public-ip). */
  readonly local: readonly string[];
  readonly ptr: readonly PtrLookup[];
}): CheckResult {
  const title = 'Reverse DNS';
  const host = norm(input.mailHostname);
  const hints: string[] = [];
  const notes: string[] = [];
  let status: CheckStatus = 'ok';
  const forward = new Set(input.forward);
  if (input.forward.length === 0) {
    status = 'warn';
    hints.push(`Publish an A (and AAAA, if you send over IPv6) record for ${host} pointing at this host.`);
  }
  for (const lookup of input.ptr) {
    const names = lookup.names.map(norm);
    if (names.length === 0) {
      status = 'warn';
      notes.push(`${lookup.ip} has no PTR (${lookup.problem ?? 'none'})`);
      hints.push(
        `Ask whoever owns ${lookup.ip} (your hosting provider) to set its PTR to ${host}: many receivers refuse mail from addresses without one.`,
      );
    } else if (!names.includes(host)) {
      status = 'warn';
      notes.push(`${lookup.ip} → ${names.join(', ')}`);
      hints.push(`Set the PTR of ${lookup.ip} to ${host} (it is the name Mailroom says in HELO).`);
    } else {
      notes.push(`${lookup.ip} → ${host}${forward.has(lookup.ip) ? ' (forward-confirmed)' : ''}`);
    }
  }
  for (const ip of input.local) {
    if (input.forward.length > 0 && !forward.has(ip)) {
      status = 'warn';
      notes.push(`this host's address ${ip} is not an A/AAAA of ${host}`);
      hints.push(
        `If mail leaves from ${ip}, add it to ${host}'s A/AAAA records (and to the SPF include host); if this host sits behind NAT, pass its public address with --public-ip.`,
      );
    }
  }
  if (input.ptr.length === 0 && input.forward.length > 0 && input.local.length === 0)
    notes.push('no address to check');
  const summary = notes.length > 0 ? notes.join('; ') : `no public address known for ${host}`;
  return result('reverse_dns', title, status, summary, hints, {
    mailHostname: host,
    forward: input.forward,
    local: input.local,
    ptr: input.ptr,
  });
}

export function localPublicAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (!a.internal && isPublicIp(a.address)) out.push(a.address);
  return out;
}

export async function checkReverseDns(
  config: Config,
  resolver: Dns,
  forward: readonly string[],
  local: readonly string[],
): Promise<CheckResult> {
  const candidates = [...new Set([...forward.filter(isPublicIp), ...local])];
  const ptr = await Promise.all(
    candidates.map(async (ip): Promise<PtrLookup> => {
      const r = await lookup(() => resolver.reverse(ip));
      return r.ok ? { ip, names: r.value } : { ip, names: [], problem: r.problem };
    }),
  );
  return evaluateReverseDns({ mailHostname: config.mailHostname, forward, local, ptr });
}
