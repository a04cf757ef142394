import net from 'node:net';

// Below Linux's ephemeral range (32768–60999): client sockets opened by other tests
// draw from that range and could grab a port between our check and the bind.
const LOW = 20_000;
const HIGH = 32_000;

function tryBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago. Processes under test take
 * fixed ports from their environment, so the test picks them: at random outside
 * the kernel's ephemeral range, so parallel test files and their outgoing
 * connections do not race for the same numbers.
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await tryBind(port)) return port;
  }
  throw new Error('no free port found');
}

export async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}
