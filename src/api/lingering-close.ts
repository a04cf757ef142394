import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';

/** After an early answer, the most body bytes read and discarded before the connection closes. */
export const LINGER_MAX_BYTES = 10 * 1024 * 1024;
/** After an early answer, the longest the connection stays open to read and discard the body. */
export const LINGER_MAX_MS = 5_000;

/**
 * An answer sent before the request body was read (a 401 before a large send's body, a 413,
 * a 429 ...) goes out with `Connection: close`; then the rest of the body is read and thrown
 * away, up to LINGER_MAX_BYTES or LINGER_MAX_MS, before the socket closes: the lingering
 * close nginx does. Closing at once reset the connection under a client that was still
 * writing, which got EPIPE or ECONNRESET and never read the answer (issue 28 item 6).
 * Outermost middleware, so every answer of the app passes through it.
 */
export function lingeringClose(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (!ctx.req.complete) {
        ctx.set('Connection', 'close');
        ctx.res.once('finish', () => drainThenClose(ctx.req));
      }
    }
  };
}

function drainThenClose(req: IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  // Node ends a `Connection: close` answer with socket.destroySoon(): our side is ended (the
  // client reads the answer, then end of stream) and the socket destroyed once that is
  // written. Keep it open for reading instead, until the body is in or a bound is reached.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the listener node added, removed by identity
  socket.removeListener('finish', socket.destroy);
  let read = 0;
  const close = (): void => {
    clearTimeout(timer);
    socket.off('data', onData);
    req.off('end', close);
    socket.destroy();
  };
  const onData = (chunk: Buffer): void => {
    read += chunk.length;
    if (read > LINGER_MAX_BYTES) close();
  };
  const timer = setTimeout(close, LINGER_MAX_MS);
  timer.unref();
  socket.on('data', onData);
  req.once('end', close);
  req.resume();
  if (req.complete) close();
}
