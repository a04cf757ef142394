// A webhook endpoint on loopback that records every request and answers as the test scripts
// it, and an independent signature check (node:crypto only, nothing from src/).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly n: number;
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** When the request (headers) arrived, ms since epoch. */
  readonly at: number;
}

export interface Reply {
  readonly status: number;
  readonly delayMs?: number;
  readonly headers?: Record<string, string>;
  /** The response body; default `ok`. */
  readonly body?: string;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Requests received and not yet answered. */
  readonly inFlight: () => number;
  /** Decides each answer; `n` counts requests from 1. Default: 200. */
  respond: (req: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let open = 0;
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests,
    inFlight: () => open,
    respond: () => ({ status: 200 }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const at = Date.now();
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: ReceivedRequest = {
        n: requests.length + 1,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      requests.push(got);
      open++;
      const reply = receiver.respond(got);
      const send = (): void => {
        open--;
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? 'ok');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, { port, url: `http://${host}:${port}/hook` });
}

/**
 * What a receiver would write, from the spec alone: parse `t=…,v1=…`, HMAC-SHA256
 * the string `<t>.<raw body>` with the secret, compare in constant time, and
 * reject timestamps more than 300 s away.
 */
export function verifySignature(secret: string, header: string | undefined, rawBody: string): boolean {
  if (header === undefined) return false;
  const parts = new Map(
    header.split(',').map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()] as const;
    }),
  );
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !v1 || !/^\d+$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
