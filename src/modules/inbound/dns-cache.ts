import type { DNSResolver } from 'mailauth';

/** How long an answer is reused: a burst of mail from one sender asks the same questions. */
export const INBOUND_DNS_CACHE_MS = 30_000;
/** Entries kept at most; the oldest go first. */
export const INBOUND_DNS_CACHE_ENTRIES = 5_000;

/** "No such record" answers, cached like records (RFC 2308); any other failure is not. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

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
 * message needs SPF, DMARC (and its organisational domain), PTR and A lookups,
 * and consecutive messages from one sender need the same ones. Answers (records,
 * NXDOMAIN and NODATA) are reused for {@link INBOUND_DNS_CACHE_MS}, like a
 * caching resolver would with a short TTL; concurrent identical questions share
 * one query. Failures (SERVFAIL, timeouts) are never cached: the next message
 * asks again. Domain verification does not use this: it must see what is
 * published now.
 */
export function cachedMailauthResolver(
  resolver: DNSResolver,
  options: { readonly ttlMs?: number; readonly maxEntries?: number; readonly now?: () => number } = {},
): DNSResolver {
  const ttlMs = options.ttlMs ?? INBOUND_DNS_CACHE_MS;
  const maxEntries = options.maxEntries ?? INBOUND_DNS_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();

  const ask = async (name: string, rrtype: string): Promise<Answer> => {
    try {
      return { kind: 'records', records: await resolver(name, rrtype) };
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && NO_RECORD.has(code))
        return { kind: 'none', code, message: (err as Error).message };
      throw err;
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
      // A failure is the callers' to see, and leaves nothing behind for the next message.
      answer.catch(() => {
        if (cache.get(key) === fresh) cache.delete(key);
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
