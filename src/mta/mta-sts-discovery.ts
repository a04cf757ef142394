/**
 * MTA-STS discovery (RFC 8461 §3, §5): the `_mta-sts.<domain>` TXT record through
 * DNS_SERVERS, the policy from `https://mta-sts.<domain>/.well-known/mta-sts.txt`, and a
 * cache per domain kept for the policy's max_age and refreshed when the record's id
 * changes. Certificates are checked against the system roots (plus EXTRA_CA_FILE, which
 * the mta passes to Haraka as NODE_EXTRA_CA_CERTS); nothing here turns checks off.
 */
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressGuard } from '../mail/address-guard';
import type { StsPolicy } from './mta-sts-policy';
import { parseStsPolicy, parseStsRecord } from './mta-sts-policy';

export interface StsDiscoveryDeps {
  /** TXT strings of a name, as `dns.promises.Resolver#resolveTxt` gives them. */
  readonly resolveTxt: (name: string) => Promise<string[][]>;
  /** The body of the domain's policy file; rejects on any failure. */
  readonly fetchPolicy: (domain: string) => Promise<string>;
  readonly now?: () => number;
}

export interface StsLookup {
  /** The policy in force for the domain, or undefined: deliver as without MTA-STS. */
  readonly policy: StsPolicy | undefined;
  readonly source: 'none' | 'cache' | 'fetched';
  /** Why a record that was announced gave no fresh policy (fetch or parse failure). */
  readonly error?: string;
}

/** A DNS answer that means "no such record", not a failure (§5.1: then the cached policy holds). */
function isNoRecord(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOTFOUND' || code === 'ENODATA';
}

export class StsDiscovery {
  private readonly cache = new Map<string, { readonly policy: StsPolicy; readonly expiresAt: number }>();
  private readonly now: () => number;

  constructor(private readonly deps: StsDiscoveryDeps) {
    this.now = deps.now ?? Date.now;
  }

  async lookup(recipientDomain: string): Promise<StsLookup> {
    const domain = recipientDomain.toLowerCase().replace(/\.$/, '');
    const entry = this.cache.get(domain);
    const cached = entry !== undefined && entry.expiresAt > this.now() ? entry.policy : undefined;
    let id: string | undefined;
    try {
      id = parseStsRecord(await this.deps.resolveTxt(`_mta-sts.${domain}`));
    } catch (err) {
      if (!isNoRecord(err)) return { policy: cached, source: cached ? 'cache' : 'none', error: message(err) };
    }
    // §5.1: a cached policy outlives the record until max_age (an attacker can strip a TXT record).
    if (id === undefined) return { policy: cached, source: cached ? 'cache' : 'none' };
    if (cached?.id === id) return { policy: cached, source: 'cache' };
    try {
      const policy = parseStsPolicy(await this.deps.fetchPolicy(domain), id);
      if (policy === undefined) throw new Error('policy file is not a valid STSv1 policy');
      this.cache.set(domain, { policy, expiresAt: this.now() + policy.maxAge * 1000 });
      return { policy, source: 'fetched' };
    } catch (err) {
      return { policy: cached, source: cached ? 'cache' : 'none', error: message(err) };
    }
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** §3.3: the policy body is small; refuse to buffer more. */
const MAX_POLICY_BYTES = 64 * 1024;

export interface HttpsFetchOptions {
  /** Addresses of a name through DNS_SERVERS (A, then AAAA). */
  readonly resolveAddresses: (name: string) => Promise<string[]>;
  /** The outbound guard: the policy host is as attacker-chosen as the MX. */
  readonly guard: AddressGuard;
  /** 443; another port only in tests (MTA_STS_TEST_PORT). */
  readonly port: number;
  readonly timeoutMs: number;
  /** Trusted CAs instead of the process's defaults (the sender passes the system's plus EXTRA_CA_FILE). */
  readonly ca?: readonly string[] | undefined;
}

/** GET https://mta-sts.<domain>/.well-known/mta-sts.txt, no redirects (§3.3), 200 and text/plain only. */
export function httpsPolicyFetcher(options: HttpsFetchOptions): (domain: string) => Promise<string> {
  return (domain) => {
    const host = `mta-sts.${domain}`;
    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      options.resolveAddresses(hostname).then(
        (addresses) => {
          const address = addresses.find((a) => options.guard.check(a).allowed);
          if (address === undefined) {
            callback(new Error(`${hostname} has no address this appliance connects to`), '', 4);
            return;
          }
          const family = address.includes(':') ? 6 : 4;
          if (lookupOptions.all === true) callback(null, [{ address, family }]);
          else callback(null, address, family);
        },
        (err: unknown) => callback(err as NodeJS.ErrnoException, '', 4),
      );
    };
    return new Promise<string>((resolve, reject) => {
      const req = https.get(
        {
          host,
          servername: host,
          port: options.port,
          path: '/.well-known/mta-sts.txt',
          lookup,
          timeout: options.timeoutMs,
          ...(options.ca === undefined ? {} : { ca: [...options.ca] }),
        },
        (res) => {
          const type = res.headers['content-type'] ?? '';
          if (res.statusCode !== 200 || !type.toLowerCase().startsWith('text/plain')) {
            res.resume();
            reject(new Error(`${host} answered ${res.statusCode ?? '?'} ${type}`.trim()));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_POLICY_BYTES) req.destroy(new Error(`${host}: policy larger than 64 KiB`));
            else chunks.push(chunk);
          });
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${host}: no answer within ${options.timeoutMs} ms`)));
      req.on('error', reject);
    });
  };
}
