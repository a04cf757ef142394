import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressGuard } from '../../mail/address-guard';
import type { HostResolution, HostResolver, ResolvedAddress } from './host-resolver';
import { urlHost } from './webhook-url';

/** Spec: the receiver answers 2xx within 10 seconds. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of the receiver's body an attempt keeps (issue 19: the attempt log's response excerpt). */
export const RESPONSE_EXCERPT_BYTES = 512;
/**
 * How long the body may take after the status line. The status decides the attempt; the
 * excerpt is only a help, so a receiver that answers 200 and then stalls still succeeds.
 */
const EXCERPT_WAIT_MS = 1_000;

/** One HTTP attempt's result, as a value: the caller decides about retries and disabling. */
export type RequestOutcome =
  | {
      readonly ok: true;
      readonly httpStatus: number;
      readonly durationMs: number;
      readonly responseExcerpt: string | null;
    }
  | {
      readonly ok: false;
      /** The receiver's status when it answered, else null (refused, DNS, connect, timeout). */
      readonly httpStatus: number | null;
      readonly error: string;
      readonly durationMs: number;
      /** True when the SSRF guard stopped it: nothing was sent. */
      readonly refused: boolean;
      /** The start of the receiver's body when it answered, else null. */
      readonly responseExcerpt: string | null;
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
  const failure = (
    error: string,
    httpStatus: number | null = null,
    refused = false,
    responseExcerpt: string | null = null,
  ): RequestOutcome => ({
    ok: false,
    httpStatus,
    error,
    durationMs: elapsed(),
    refused,
    responseExcerpt,
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
      void readExcerpt(res).then((excerpt) => {
        if (status >= 200 && status < 300) {
          resolve({ ok: true, httpStatus: status, durationMs: elapsed(), responseExcerpt: excerpt });
        } else if (status >= 300 && status < 400) {
          resolve(failure(`HTTP ${status}: redirects are not followed`, status, false, excerpt));
        } else resolve(failure(`HTTP ${status}`, status, false, excerpt));
      });
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

/**
 * The first RESPONSE_EXCERPT_BYTES of the body, as UTF-8 (a character cut at the end
 * shows as U+FFFD). The response is destroyed once they are in, at its end, on an error
 * or after EXCERPT_WAIT_MS: a receiver that streams forever or stalls costs no more.
 */
function readExcerpt(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      res.off('data', onData);
      res.destroy();
      resolve(Buffer.concat(chunks, size).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'));
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) done();
    };
    const timer = setTimeout(done, EXCERPT_WAIT_MS);
    res.on('data', onData);
    res.once('end', done);
    res.once('error', done);
    res.once('aborted', done);
  });
}
