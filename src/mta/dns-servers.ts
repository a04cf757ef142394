/** The `[dns] servers` value of mailroom.ini: a comma list, empty for the system resolvers. */
export function parseDnsServerList(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string')
    throw new Error(`mailroom.ini [dns] servers: expected a string, got ${typeof value}`);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Anything with `setServers`: node's default resolver, a `dns.promises.Resolver`, haraka-net-utils' resolver. */
export interface SettableResolver {
  setServers(servers: readonly string[]): void;
}

/**
 * Points every resolver at the configured servers. Nothing to do without servers:
 * the resolvers keep the system configuration (`/etc/resolv.conf`).
 */
export function applyDnsServers(servers: readonly string[], resolvers: readonly SettableResolver[]): boolean {
  if (servers.length === 0) return false;
  for (const resolver of resolvers) resolver.setServers(servers);
  return true;
}
