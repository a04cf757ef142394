import dns from 'node:dns';
import net from 'node:net';
import type { DNSResolver } from 'mailauth';

/**
 * Why a lookup produced no answer when the name's status is unknown. NXDOMAIN and
 * NODATA are answers (the record is missing); these are not: the caller cannot
 * tell whether the record exists, so it must not treat the result as "missing".
 */
export type DnsFailureReason = 'SERVFAIL' | 'TIMEOUT' | 'REFUSED' | 'ERROR';

/** The outcome of one query: an answer (`found`, `nxdomain`, `nodata`) or a failure to get one. */
export type DnsLookup<T> =
  | { readonly status: 'found'; readonly records: readonly T[] }
  | { readonly status: 'nxdomain' }
  | { readonly status: 'nodata' }
  | { readonly status: 'failed'; readonly reason: DnsFailureReason; readonly code: string };

export interface MxRecord {
  readonly exchange: string;
  readonly priority: number;
}

export interface DnsResolver {
  /** TXT records, one string per record: its character-strings joined without separator (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
  txt(name: string): Promise<DnsLookup<string>>;
  mx(name: string): Promise<DnsLookup<MxRecord>>;
  cname(name: string): Promise<DnsLookup<string>>;
  a(name: string): Promise<DnsLookup<string>>;
  aaaa(name: string): Promise<DnsLookup<string>>;
  /** `dns.promises.resolve`-shaped function for mailauth's `resolver` option (throws ENOTFOUND / ENODATA for no record). */
  readonly mailauth: DNSResolver;
  /** The servers queried, `ip:port`; empty means the system's resolvers. */
  readonly servers: readonly string[];
}

export interface DnsResolverOptions {
  /** DNS_SERVERS; unset or empty: the system's resolvers. */
  readonly servers?: readonly { readonly host: string; readonly port: number }[] | undefined;
  /** First per-try timeout; c-ares doubles it on each retry up to `maxTimeoutMs`. */
  readonly timeoutMs?: number | undefined;
  readonly tries?: number | undefined;
  readonly maxTimeoutMs?: number | undefined;
}

// 2 s then 4 s: about 6 s before a silent server is reported as TIMEOUT. Long enough for a
// recursive resolver's cold cache, short enough for an API call that waits on it.
const DEFAULTS = { timeoutMs: 2_000, tries: 2, maxTimeoutMs: 4_000 } as const;

const NO_RECORD: Readonly<Record<string, 'nxdomain' | 'nodata'>> = {
  ENOTFOUND: 'nxdomain',
  ENODATA: 'nodata',
};

const FAILURE: Readonly<Record<string, DnsFailureReason>> = {
  ESERVFAIL: 'SERVFAIL',
  ETIMEOUT: 'TIMEOUT',
  EREFUSED: 'REFUSED',
};

/** `ip:port` as Resolver#setServers takes it (IPv6 in brackets). */
export function serverAddress(server: { readonly host: string; readonly port: number }): string {
  return net.isIPv6(server.host) ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

/** Maps a resolver error to a lookup outcome; anything unexpected is a failure, never "missing". */
export function classifyDnsError(err: unknown): DnsLookup<never> {
  const raw = (err as { code?: unknown } | null)?.code;
  const code = typeof raw === 'string' ? raw : 'ERROR';
  const none = NO_RECORD[code];
  if (none) return { status: none };
  return { status: 'failed', reason: FAILURE[code] ?? 'ERROR', code };
}

async function lookup<T>(query: () => Promise<T[]>): Promise<DnsLookup<T>> {
  try {
    const records = await query();
    // An alias whose target has no record of the type comes back as an empty answer, not ENODATA.
    return records.length === 0 ? { status: 'nodata' } : { status: 'found', records };
  } catch (err) {
    return classifyDnsError(err);
  }
}

function noData(name: string, rrtype: string): Error {
  return Object.assign(new Error(`query${rrtype} ENODATA ${name}`), {
    code: 'ENODATA',
    hostname: name,
  });
}

/**
 * The application's one way to query DNS. Every lookup goes to DNS_SERVERS when it
 * is set (tests point it at a fake authoritative server), with bounded timeouts.
 * No caching: verification must see what is published now.
 */
export function createDnsResolver(options: DnsResolverOptions = {}): DnsResolver {
  const resolver = new dns.promises.Resolver({
    timeout: options.timeoutMs ?? DEFAULTS.timeoutMs,
    tries: options.tries ?? DEFAULTS.tries,
    maxTimeout: options.maxTimeoutMs ?? DEFAULTS.maxTimeoutMs,
  });
  const servers = (options.servers ?? []).map(serverAddress);
  try {
    if (servers.length > 0) resolver.setServers(servers);
  } catch (err) {
    // setServers takes IP addresses only; name the setting instead of c-ares' terse error.
    throw new Error(`DNS_SERVERS must list IP addresses (ip[:port]), got ${servers.join(',')}`, {
      cause: err,
    });
  }

  const mailauth: DNSResolver = async (name, rrtype) => {
    const records = (await resolver.resolve(name, rrtype)) as unknown[];
    if (records.length === 0) throw noData(name, rrtype);
    // mailauth reads each rrtype's result exactly as dns.promises.resolve shapes it (TXT: string[][], MX: objects).
    return records as string[][] | string[];
  };

  return {
    servers,
    mailauth,
    txt: (name) => lookup(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    mx: (name) => lookup(() => resolver.resolveMx(name)),
    cname: (name) => lookup(() => resolver.resolveCname(name)),
    a: (name) => lookup(() => resolver.resolve4(name)),
    aaaa: (name) => lookup(() => resolver.resolve6(name)),
  };
}
