import dns from 'node:dns';
import net from 'node:net';
import type { HostPort } from '../../config/config-table';
import { classifyDnsError, serverAddress } from '../../shared/dns-resolver';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** The addresses a webhook host stands for, or why there are none. */
export type HostResolution =
  | { readonly ok: true; readonly addresses: readonly ResolvedAddress[] }
  | { readonly ok: false; readonly error: string };

export type HostResolver = (host: string) => Promise<HostResolution>;

/**
 * Resolves webhook hosts through DNS_SERVERS (A and AAAA), so the address the
 * SSRF guard checks is the one we then connect to. `localhost` is answered
 * here (RFC 6761 §6.3) rather than by a resolver that may not know it.
 */
export function createHostResolver(options: {
  readonly servers?: readonly HostPort[] | undefined;
  readonly timeoutMs?: number | undefined;
}): HostResolver {
  const resolver = new dns.promises.Resolver({ timeout: options.timeoutMs ?? 2_000, tries: 2 });
  const servers = (options.servers ?? []).map(serverAddress);
  if (servers.length > 0) resolver.setServers(servers);

  return async (host) => {
    const name = host.replace(/^\[|\]$/g, '').toLowerCase();
    const family = net.isIP(name);
    if (family === 4 || family === 6) return { ok: true, addresses: [{ address: name, family }] };
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return {
        ok: true,
        addresses: [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      };
    }
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length > 0) return { ok: true, addresses };
    const failure = v4.status === 'rejected' ? classifyDnsError(v4.reason) : { status: 'nodata' as const };
    const error =
      failure.status === 'failed'
        ? `DNS lookup of ${name} failed (${failure.reason})`
        : `${name} has no A or AAAA record`;
    return { ok: false, error };
  };
}
