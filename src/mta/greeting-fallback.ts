/**
 * Tries the next MX when one greets with a 4xx or 5xx (issue 22 item 1). Haraka 3.3.4 treats
 * a refusing greeting (421 "too many connections", RFC 5321 §3.1 and §4.2.5) as the answer of
 * the whole destination and defers the message, while a refused connection moves on to the
 * next MX: a busy primary then delays mail its backups would take. RFC 5321 §5.1 asks clients
 * to try the other addresses when one cannot take the mail, and Postfix does exactly this by
 * default (smtp_skip_4xx_greeting, smtp_skip_5xx_greeting).
 *
 * Sockets come from outbound/client_pool.js `get_client`, which hmail.js calls through the
 * module object (see outbound-no-delay.ts): the wrapper reads the greeting before Haraka sees
 * the socket. A refusing greeting is reported as a failed connection, which makes Haraka try
 * the next address; a 2xx greeting is replayed to Haraka's own line handler, which is attached
 * synchronously in the callback. Only MX targets found in DNS (`from_dns`) are handled: the
 * operator's SMTP_RELAY keeps Haraka's behaviour, whose deferral carries the relay's reply.
 */
interface LineSocket {
  on(event: 'line', listener: (line: string) => void): unknown;
  on(event: 'error' | 'close' | 'timeout', listener: (err?: unknown) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: 'line', line: string): unknown;
  destroy(): unknown;
}
type Callback = (err: unknown, socket: LineSocket | null) => void;
type GetClient = (mx: { readonly from_dns?: unknown }, callback: Callback) => void;
interface ClientPool {
  get_client?: GetClient;
  __mailroomGreeting?: boolean;
}

/** The last line of a reply: code and a space (RFC 5321 §4.2). */
const FINAL_LINE = /^\d{3}(?: |\r?\n|$)/;

/** Waits for the whole greeting; calls `done` once with the buffered lines or why it failed. */
function readGreeting(socket: LineSocket, done: (err: string | undefined, lines: string[]) => void): void {
  const lines: string[] = [];
  const finish = (err: string | undefined): void => {
    socket.off('line', onLine);
    socket.off('error', onFailure);
    socket.off('close', onFailure);
    socket.off('timeout', onFailure);
    done(err, lines);
  };
  const onLine = (line: string): void => {
    lines.push(line);
    if (!FINAL_LINE.test(line)) return;
    finish(/^[45]/.test(line) ? `greeting refused: ${line.trim()}` : undefined);
  };
  const onFailure = (err?: unknown): void => finish(`connection lost before the greeting: ${String(err)}`);
  socket.on('line', onLine);
  socket.on('error', onFailure);
  socket.on('close', onFailure);
  socket.on('timeout', onFailure);
}

export function skipRefusingGreetings(clientPool: ClientPool): boolean {
  const original = clientPool.get_client;
  if (typeof original !== 'function') return false;
  if (clientPool.__mailroomGreeting === true) return true;
  clientPool.get_client = (mx, callback) =>
    original(mx, (err, socket) => {
      if (err !== null || socket === null || mx.from_dns === undefined) {
        callback(err, socket);
        return;
      }
      readGreeting(socket, (refused, lines) => {
        if (refused !== undefined) {
          socket.destroy();
          callback(refused, null);
          return;
        }
        callback(null, socket);
        for (const line of lines) socket.emit('line', line);
      });
    });
  clientPool.__mailroomGreeting = true;
  return true;
}
