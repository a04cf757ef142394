import http from 'node:http';
import type net from 'node:net';

export function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

/**
 * A test peer's socket: read (else its end is never seen and server.close() waits
 * forever), and ignore the resets our probes cause by hanging up at once.
 */
export function peer(socket: net.Socket): net.Socket {
  return socket.on('error', () => undefined).resume();
}

export function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if (server instanceof http.Server) server.closeAllConnections();
  });
}
