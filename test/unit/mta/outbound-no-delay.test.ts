// Haraka's outbound connections run without Nagle's algorithm (issue 18 item 11): the real
// client_pool of the installed Haraka, a real TCP listener, and node's setNoDelay observed.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { disableNagleOnOutbound } from '../../../src/mta/outbound-no-delay';

const harakaRequire = createRequire(require.resolve('Haraka/package.json'));

describe('disableNagleOnOutbound (Haraka outbound/client_pool)', () => {
  let server: net.Server;
  let port: number;
  before(async () => {
    server = net.createServer((s) => {
      s.on('error', () => undefined);
      s.end('220 test\r\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("sets noDelay on the socket of every connection Haraka's get_client opens", async () => {
    type Pool = Parameters<typeof disableNagleOnOutbound>[0];
    const pool = harakaRequire('./outbound/client_pool') as Pool;
    assert.equal(
      disableNagleOnOutbound(pool),
      true,
      'Haraka no longer exports outbound/client_pool get_client: re-check src/mta/outbound-no-delay.ts against the installed version',
    );
    const calls: boolean[] = [];
    const proto = net.Socket.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'setNoDelay');
    proto.setNoDelay = function (this: net.Socket, noDelay?: boolean) {
      calls.push(noDelay ?? true);
      return this;
    };
    try {
      const getClient = pool.get_client;
      assert.ok(getClient);
      const socket = await new Promise<unknown>((resolve, reject) =>
        getClient({ exchange: '127.0.0.1', port }, (err, s) =>
          s ? resolve(s) : reject(new Error(String(err))),
        ),
      );
      (socket as net.Socket).on('error', () => undefined);
      (socket as net.Socket).destroy();
    } finally {
      if (original) Object.defineProperty(proto, 'setNoDelay', original);
    }
    assert.deepEqual(calls, [true]);
  });
});
