import net from 'node:net';

/**
 * Exit code of a process, and of the appliance, whose listener could not bind
 * (EX_OSERR from sysexits.h; 78 is taken by invalid configuration). The supervisor
 * does not restart a child that exits with it: the port stays taken, a restart only
 * loops (issue 21 item 3). Documented in docs/operations.md.
 */
export const LISTEN_FAILED_EXIT = 71;

/** A listener, named by the setting that chose its port. */
export interface ListenerSpec {
  readonly setting: string;
  readonly host: string;
  readonly port: number;
}

const EXPLAINED = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']);

/** The one line an operator reads: `SMTP_PORT 2525 is already in use`. */
export function describeListenFailure(listener: ListenerSpec, code: string): string {
  const { setting, port, host } = listener;
  if (code === 'EADDRINUSE') return `${setting} ${port} is already in use`;
  if (code === 'EACCES') {
    return `${setting} ${port} cannot be bound: permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE)`;
  }
  if (code === 'EADDRNOTAVAIL')
    return `${setting} ${port} cannot be bound: ${host} is not an address of this host`;
  return `${setting} ${port} cannot be bound (${code})`;
}

/**
 * The error a failed bind becomes: told apart by its name (isListenError), not by
 * instanceof, like ConfigError. `undefined` when `err` is no bind failure.
 */
export function listenFailure(listener: ListenerSpec, err: unknown): Error | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !EXPLAINED.has(code)) return undefined;
  const failure = new Error(describeListenFailure(listener, code));
  failure.name = 'ListenError';
  return Object.assign(failure, { setting: listener.setting, port: listener.port, code });
}

export function isListenError(err: unknown): err is Error & { setting: string; port: number; code: string } {
  return err instanceof Error && err.name === 'ListenError';
}

/** Binds and closes each listener in turn; rejects with the first bind failure (a ListenError). */
export async function checkListeners(listeners: readonly ListenerSpec[]): Promise<void> {
  for (const listener of listeners) {
    await new Promise<void>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (err) => reject(listenFailure(listener, err) ?? err));
      server.listen({ port: listener.port, host: listener.host, exclusive: true }, () =>
        server.close(() => resolve()),
      );
    });
  }
}

/** A free loopback port, asked of the OS (bind to port 0). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
