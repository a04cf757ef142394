import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago. Processes under test take
 * fixed ports from their environment, so the test picks them; the tiny race with
 * other parallel tests is accepted (the kernel hands out ephemeral ports in order).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

export async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}
