import type { DNSResolver } from 'mailauth';

/** How long an answer is reused: a burst of mail from one sender asks the same questions. */
export const INBOUND_DNS_CACHE_MS = 30_000;
/**
 * How long a question that got no record, or no answer at all (SERVFAIL, timeout,
 * refused), is not asked again: a flood of mail signed with a dead selector costs one
 * slow lookup, not one per message (RFC 2308 §7.1 allows caching failures for up to 5 min).
 */
export const INBOUND_DNS_FAILURE_CACHE_MS = 60_000;
/** Entries kept at most; the oldest go first. */
export const INBOUND_DNS_CACHE_ENTRIES = 5_000;

type Answer =
  | { readonly kind: 'records'; readonly records: unknown[] }
  | { readonly kind: 'none'; readonly code: string; readonly message: string };

interface Entry {
  readonly expires: number;
  readonly answer: Promise<Answer>;
}

/** A fresh copy per caller: mailauth may keep or change what it is given. */
function deliver(answer: Answer, name: string): unknown[] {
  if (answer.kind === 'records')
    return answer.records.map((r) => (Array.isArray(r) ? [...(r as unknown[])] : r));
  throw Object.assign(new Error(answer.message), { code: answer.code, hostname: name });
}

/**
 * mailauth's resolver with a short shared cache for inbound authentication: each
 * message needs SPF, DMARC (and its organisational domain), PTR, A and DKIM key
 * lookups, and consecutive messages from one sender need the same ones. Records are
 * reused for {@link INBOUND_DNS_CACHE_MS}, like a caching resolver would with a short
 * TTL; NXDOMAIN, NODATA and failures (SERVFAIL, timeouts: the error's code is kept, so
 * mailauth still reports temperror) for {@link INBOUND_DNS_FAILURE_CACHE_MS};
 * concurrent identical questions share one query. Domain verification does not use
 * this: it must see what is published now.
 */
export function cachedMailauthResolver(
  resolver: DNSResolver,
  options: {
    readonly ttlMs?: number;
    readonly failureTtlMs?: number;
    readonly maxEntries?: number;
    readonly now?: () => number;
  } = {},
): DNSResolver {
  const ttlMs = options.ttlMs ?? INBOUND_DNS_CACHE_MS;
  const failureTtlMs = options.failureTtlMs ?? INBOUND_DNS_FAILURE_CACHE_MS;
  const maxEntries = options.maxEntries ?? INBOUND_DNS_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();

  const ask = async (name: string, rrtype: string): Promise<Answer> => {
    try {
      return { kind: 'records', records: await resolver(name, rrtype) };
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      return {
        kind: 'none',
        code: typeof code === 'string' ? code : 'ESERVFAIL',
        message: err instanceof Error ? err.message : String(err),
      };
    }
  };

  const cached = async (name: string, rrtype: string): Promise<unknown[]> => {
    const key = `${rrtype}:${name.toLowerCase()}`;
    const t = now();
    let entry = cache.get(key);
    if (entry !== undefined && entry.expires <= t) {
      cache.delete(key);
      entry = undefined;
    }
    if (entry === undefined) {
      const answer = ask(name, rrtype);
      const fresh: Entry = { expires: t + ttlMs, answer };
      entry = fresh;
      cache.set(key, fresh);
      // A negative answer or a failure is kept for its own time, counted from when it came.
      void answer.then((a) => {
        if (a.kind === 'none' && cache.get(key) === fresh)
          cache.set(key, { expires: now() + failureTtlMs, answer });
      });
      if (cache.size > maxEntries) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
    }
    return deliver(await entry.answer, name);
  };
  return cached as DNSResolver;
}
