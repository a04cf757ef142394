/**
 * Turns off Nagle's algorithm on Haraka's outbound SMTP connections (issue 18 item 11).
 * With PIPELINING, Haraka's outbound client writes MAIL FROM and RCPT TO (and the end of
 * DATA) as separate small writes; Nagle holds the second until the first is acknowledged,
 * and the receiving stack delays that ACK (up to 40 ms on Linux), on every relayed message
 * (the latency scenario's hand-off → sink stage; figures in bench/README.md, bench/RESULTS.md).
 * Haraka 3.3.4 offers no option for it: its sockets come from outbound/client_pool.js
 * `get_client`, which hmail.js calls through the module object, so wrapping that export
 * reaches every connection; the real socket is the pluggable stream's `targetsocket`
 * (tls_socket.js, whose own setNoDelay is a no-op). When a Haraka upgrade changes either,
 * this returns false and the caller logs it: mail still flows, only with the delay.
 */
interface PooledSocket {
  readonly targetsocket?: { setNoDelay?: (noDelay: boolean) => unknown };
}
type GetClient = (mx: unknown, callback: (err: unknown, socket: PooledSocket | null) => void) => void;
interface ClientPool {
  get_client?: GetClient;
  __mailroomNoDelay?: boolean;
}

export function disableNagleOnOutbound(clientPool: ClientPool): boolean {
  const original = clientPool.get_client;
  if (typeof original !== 'function') return false;
  if (clientPool.__mailroomNoDelay === true) return true;
  clientPool.get_client = (mx, callback) =>
    original(mx, (err, socket) => {
      socket?.targetsocket?.setNoDelay?.(true);
      callback(err, socket);
    });
  clientPool.__mailroomNoDelay = true;
  return true;
}
