import dns from 'node:dns';
import net from 'node:net';
import type { Config } from '../../config';
import { classifyDnsError, serverAddress } from '../../shared/dns-resolver';
import type { CheckResult } from './check-result';
import { result } from './check-result';

export interface Dns {
  readonly servers: string;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  reverse(ip: string): Promise<string[]>;
  resolveMx(name: string): Promise<dns.MxRecord[]>;
}

export function makeResolver(config: Config, timeoutMs: number): Dns {
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 2 });
  const servers = (config.dnsServers ?? []).map(serverAddress);
  if (servers.length > 0) resolver.setServers(servers);
  return {
    servers:
      servers.length > 0 ? servers.join(', ') : `system (${resolver.getServers().join(', ') || 'none'})`,
    resolve4: (n) => resolver.resolve4(n),
    resolve6: (n) => resolver.resolve6(n),
    // A plain PTR query on our resolver (dns.reverse would answer from /etc/hosts first).
    reverse: (ip) => resolver.resolvePtr(reverseName(ip)),
    resolveMx: (n) => resolver.resolveMx(n),
  };
}

/** `203.0.113.5` → `5.113.0.203.in-addr.arpa`; IPv6 by nibbles under ip6.arpa. */
export function reverseName(ip: string): string {
  if (net.isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const sl = new net.SocketAddress({ address: ip, family: 'ipv6' });
  const groups = sl.address.includes('::') ? expandIpv6(sl.address) : sl.address.split(':');
  const hex = groups.map((g) => g.padStart(4, '0')).join('');
  return `${hex.split('').reverse().join('.')}.ip6.arpa`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const h = head === '' ? [] : head.split(':');
  const t = tail === '' ? [] : tail.split(':');
  return [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
}

type Lookup<T> = { ok: true; value: T } | { ok: false; problem: string };

export async function lookup<T>(fn: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    const c = classifyDnsError(err);
    return { ok: false, problem: c.status === 'failed' ? c.reason : c.status };
  }
}

export async function checkDns(
  config: Config,
  resolver: Dns,
): Promise<{ check: CheckResult; forward: string[]; working: boolean }> {
  const title = 'DNS resolver';
  const host = config.mailHostname;
  const [a, aaaa] = await Promise.all([
    lookup(() => resolver.resolve4(host)),
    lookup(() => resolver.resolve6(host)),
  ]);
  const answered = (l: Lookup<string[]>): boolean =>
    l.ok || l.problem === 'nxdomain' || l.problem === 'nodata';
  const forward = [...(a.ok ? a.value : []), ...(aaaa.ok ? aaaa.value : [])];
  if (!answered(a) && !answered(aaaa)) {
    const problem = !a.ok ? a.problem : 'ERROR';
    return {
      check: result('dns', title, 'fail', `no answer from ${resolver.servers} for ${host}: ${problem}`, [
        'Domain verification, MX lookups and inbound mail checks all need DNS: fix the resolver or set DNS_SERVERS.',
      ]),
      forward,
      working: false,
    };
  }
  const what = forward.length > 0 ? `${host} → ${forward.join(', ')}` : `${host} has no A/AAAA record`;
  return {
    check: result('dns', title, 'ok', `${resolver.servers} answers; ${what}`),
    forward,
    working: true,
  };
}
