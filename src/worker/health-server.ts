import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenFailure } from '../shared/listen-failure';

export interface HealthServerOptions {
  readonly port: number;
  readonly host: string;
}

export interface HealthServer {
  /** The bound port (useful when 0 asked the OS for one). */
  readonly port: number;
  close(): Promise<void>;
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
  });
  res.end(json);
}

/**
 * The worker's liveness endpoint (spec: `:4001/health`). Liveness only: it checks
 * no dependency, so a slow database never gets a healthy worker restarted.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
      reply(res, 200, { status: 'ok' });
      return;
    }
    reply(res, 404, {
      error: { code: 'NOT_FOUND', message: `No route for ${req.method ?? 'GET'} ${path ?? '/'}` },
    });
  });
  // A probe that opens a connection and says nothing must not hold a socket forever.
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void =>
      reject(listenFailure({ setting: 'WORKER_PORT', host: options.host, port: options.port }, err) ?? err);
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive probes would otherwise hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
