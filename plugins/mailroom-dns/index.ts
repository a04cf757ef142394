/**
 * Every DNS lookup of the Haraka process goes to DNS_SERVERS when it is set.
 * Haraka resolves through resolvers that are not ours:
 * - haraka-net-utils' own `Resolver` (MX and A/AAAA lookups of outbound mail):
 *   given our servers in register(), before any listener or queued delivery.
 * - node's default resolver (`dns.reverse` for each client in connection.js):
 *   given our servers too, but `dns.reverse` answers from /etc/hosts first and
 *   waits on c-ares' default timeouts, so the reverse lookup is done here
 *   instead, in a `lookup_rdns` hook, as a plain PTR query with a short timeout.
 * - haraka-net-utils' STUN query for our public address: never made (below).
 */
import dns from 'node:dns';
import { createRequire } from 'node:module';
import constants from 'haraka-constants';
import type { SettableResolver } from '../../src/mta/dns-servers';
import { applyDnsServers, parseDnsServerList } from '../../src/mta/dns-servers';
import { reverseLookup } from '../../src/mta/reverse-dns';
import { iniValue } from '../ini';
import type { HarakaConnection, HarakaNext, HarakaPlugin } from '../types';

/** The PTR lookup holds the client's greeting: 2 s, then 4 s, then the client is 'DNSERROR'. */
const rdnsResolver = new dns.promises.Resolver({ timeout: 2_000, tries: 2, maxTimeout: 4_000 });

function isSettable(value: unknown): value is SettableResolver {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SettableResolver).setServers === 'function'
  );
}

/**
 * The resolver instance Haraka's MX lookups use (get_mx.js captures it when
 * loaded), resolved from Haraka's own directory so we get the module instance
 * Haraka got, even if npm ever nests haraka-net-utils under Haraka.
 */
/** `require` from Haraka's own directory: the module instances Haraka itself got. */
const harakaRequire = createRequire(require.resolve('Haraka/package.json'));

function harakaNetUtilsResolver(): SettableResolver {
  const dnsConfig: unknown = harakaRequire('haraka-net-utils/lib/dns_config');
  const getDnsResolver: unknown =
    typeof dnsConfig === 'object' && dnsConfig !== null
      ? (dnsConfig as Record<string, unknown>).getDnsResolver
      : undefined;
  if (typeof getDnsResolver !== 'function') throw new Error('haraka-net-utils: getDnsResolver() not found');
  const resolver: unknown = (getDnsResolver as () => unknown)();
  if (!isSettable(resolver)) throw new Error('haraka-net-utils: its resolver has no setServers()');
  return resolver;
}

/**
 * Before delivering to an MX found in DNS, haraka-net-utils checks whether it is
 * this host (local_mx_ok=false), and for that asks a public STUN server
 * (stun.l.google.com, its name resolved by getaddrinfo, outside DNS_SERVERS) for
 * our public address, once per process. The appliance makes no third-party
 * requests of its own accord: the cached answer is preset to "unknown", what
 * net-utils itself records when STUN is unreachable. An MX resolving to one of
 * this host's interface addresses is still recognised as local.
 */
function skipStunLookup(): void {
  const netUtils: unknown = harakaRequire('haraka-net-utils');
  if (typeof netUtils !== 'object' || netUtils === null) throw new Error('haraka-net-utils not found');
  const cache = netUtils as { public_ip?: unknown };
  if (cache.public_ip === undefined) cache.public_ip = null;
}

export function register(this: HarakaPlugin): void {
  skipStunLookup();
  const servers = parseDnsServerList(iniValue(this.config.get('mailroom.ini'), 'dns', 'servers'));
  const applied = applyDnsServers(servers, [dns, harakaNetUtilsResolver(), rdnsResolver]);
  this.loginfo(applied ? 'DNS servers set' : 'DNS_SERVERS unset: system resolvers', {
    event: 'mta_dns_servers',
    servers: applied ? servers : 'system',
  });
  this.register_hook('lookup_rdns', 'lookupRdns');
}

/** OK + name: connection.js records it as the client's host ('NXDOMAIN'/'DNSERROR' as Haraka would). */
export function lookupRdns(this: HarakaPlugin, next: HarakaNext, connection: HarakaConnection): void {
  const ip = connection.remote.ip;
  if (ip === null) {
    next();
    return;
  }
  void reverseLookup(rdnsResolver, ip).then((host) => {
    next(constants.ok, host);
  });
}
