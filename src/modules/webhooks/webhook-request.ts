import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressGuard } from './address-policy';
import type { HostResolution, HostResolver, ResolvedAddress } from './host-resolver';
import { urlHost } from './webhook-url';

/** Spec: the receiver answers 2xx within 10 seconds. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** One HTTP attempt's result, as a value: the caller decides about retries and disabling. */
export type RequestOutcome =
  | { readonly ok: true; readonly httpStatus: number; readonly durationMs: number }
  | {
      readonly ok: false;
      /** The receiver's status when it answered, else null (refused, DNS, connect, timeout). */
      readonly httpStatus: number | null;
      readonly error: string;
      readonly durationMs: number;
      /** True when the SSRF guard stopped it: nothing was sent. */
      readonly refused: boolean;
    };

export interface WebhookRequest {
  readonly url: URL;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly guard: AddressGuard;
  readonly resolve: HostResolver;
  readonly timeoutMs?: number | undefined;
  /** Aborted when the worker stops or loses the job's lease. */
  readonly signal?: AbortSignal | undefined;
}

class Refused extends Error {}

/** Hands the connection exactly the address the guard checked (net passes `all: true` when it wants a list). */
function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pin]);
    } else {
      callback(null, pin.address, pin.family);
    }
  };
}

/** Both IPv6 spellings of an address compare equal (the socket reports its own form). */
function sameAddress(a: string | undefined, b: string): boolean {
  const norm = (s: string): string => s.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  return a !== undefined && norm(a) === norm(b);
}

/**
 * Resolves the host itself, lets the SSRF guard judge every address, then
 * connects to the checked address and no other (so a DNS answer that changes
 * between check and connect cannot steer the request inward). The URL's host
 * still names the request: Host header, TLS SNI and certificate check.
 * Redirects are not followed; only 2xx counts. The whole attempt, DNS included,
 * has `timeoutMs`.
 */
export async function postWebhook(req: WebhookRequest): Promise<RequestOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const timeoutMs = req.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
  const failure = (error: string, httpStatus: number | null = null, refused = false): RequestOutcome => ({
    ok: false,
    httpStatus,
    error,
    durationMs: elapsed(),
    refused,
  });
  const timedOut = (): string => `timed out after ${timeoutMs} ms`;

  const host = urlHost(req.url);
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  aborted.catch(() => undefined);
  let resolution: HostResolution;
  try {
    resolution = await Promise.race([req.resolve(host), aborted]);
  } catch {
    return failure(deadline.aborted ? timedOut() : 'aborted');
  }
  if (!resolution.ok) return failure(resolution.error);
  for (const a of resolution.addresses) {
    const verdict = req.guard.check(a.address);
    if (!verdict.allowed) return failure(`refused: ${verdict.reason}`, null, true);
  }
  const pin = resolution.addresses.find((a) => a.family === 4) ?? resolution.addresses[0];
  if (!pin) return failure(`${host} has no address`);

  const transport = req.url.protocol === 'https:' ? https : http;
  return new Promise<RequestOutcome>((resolve) => {
    const request = transport.request({
      protocol: req.url.protocol,
      hostname: host,
      port: req.url.port === '' ? undefined : Number(req.url.port),
      path: `${req.url.pathname}${req.url.search}`,
      method: 'POST',
      headers: { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)), Connection: 'close' },
      // A fresh connection per attempt: a pooled socket could have been opened for another address.
      agent: false,
      lookup: pinnedLookup(pin),
      signal,
    });
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        if (!sameAddress(socket.remoteAddress, pin.address)) {
          request.destroy(new Refused(`connected to ${socket.remoteAddress ?? '?'}, not ${pin.address}`));
        }
      });
    });
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // The body is neither needed nor stored; closing now also ends a receiver that streams forever.
      res.destroy();
      if (status >= 200 && status < 300) resolve({ ok: true, httpStatus: status, durationMs: elapsed() });
      else if (status >= 300 && status < 400)
        resolve(failure(`HTTP ${status}: redirects are not followed`, status));
      else resolve(failure(`HTTP ${status}`, status));
    });
    request.on('error', (err) => {
      if (err instanceof Refused) resolve(failure(`refused: ${err.message}`, null, true));
      else if (deadline.aborted) resolve(failure(timedOut()));
      else if (signal.aborted) resolve(failure('aborted'));
      else resolve(failure(err.message || (err as NodeJS.ErrnoException).code || 'request failed'));
    });
    request.end(req.body);
  });
}
