// How an allowed MX address is reached (OUTBOUND_IPV6, OUTBOUND_SOURCE_ADDRESS(_V6), the
// test-only OUTBOUND_MX_PORT) and the greeting check in front of Haraka's outbound sockets.
// End to end: test/integration/mta-mx-path.test.ts.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { outboundGuardFromConfig } from '../../../src/mail/address-guard';
import { skipRefusingGreetings } from '../../../src/mta/greeting-fallback';
import type { MxLookup } from '../../../src/mta/mx-guard';
import { routeToMx } from '../../../src/mta/mx-guard';

const guard = outboundGuardFromConfig({ outboundAllowPrivate: false });

/** One domain whose only MX has a v6 and a v4 address (a stand-in for DNS). */
const lookup: MxLookup = {
  get_mx: () => Promise.resolve([{ exchange: 'mx.dual.test', priority: 10 }]),
  resolve_mx_hosts: (mxs) =>
    Promise.resolve(
      mxs.flatMap((m) =>
        ['2001:db9::25', '203.0.114.25'].map((ip) => ({ ...m, exchange: ip, from_dns: m.exchange })),
      ),
    ),
};

describe('routeToMx paths', () => {
  it('defaults to both families on port 25 with no source address', async () => {
    const route = await routeToMx('dual.test', lookup, guard);
    assert.equal(route.kind, 'deliver');
    if (route.kind !== 'deliver') return;
    assert.deepEqual(
      route.targets.map((t) => [t.exchange, t.port, t.bind]),
      [
        ['2001:db9::25', 25, undefined],
        ['203.0.114.25', 25, undefined],
      ],
    );
  });

  it('binds each target to the source address of its family and drops IPv6 when it is off', async () => {
    const both = await routeToMx('dual.test', lookup, guard, {
      ipv6: true,
      port: 2525,
      sourceV4: '198.51.100.7',
      sourceV6: '2001:db8::7',
    });
    assert.equal(both.kind, 'deliver');
    if (both.kind === 'deliver') {
      assert.deepEqual(
        both.targets.map((t) => [t.exchange, t.port, t.bind]),
        [
          ['2001:db9::25', 2525, '2001:db8::7'],
          ['203.0.114.25', 2525, '198.51.100.7'],
        ],
      );
    }
    const v4 = await routeToMx('dual.test', lookup, guard, { ipv6: false, port: 25 });
    assert.equal(v4.kind, 'deliver');
    if (v4.kind === 'deliver') assert.deepEqual(v4.refused, [], 'an unused family is not a refusal');
    if (v4.kind === 'deliver')
      assert.deepEqual(
        v4.targets.map((t) => t.exchange),
        ['203.0.114.25'],
      );
  });
});

/** A socket as client_pool hands it over: lines, errors, destroy. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  destroy(): void {
    this.destroyed = true;
  }
}

function poolWith(socket: FakeSocket): {
  get_client?: (mx: { from_dns?: string }, cb: (err: unknown, s: unknown) => void) => void;
} {
  return { get_client: (_mx, cb) => cb(null, socket) };
}

describe('skipRefusingGreetings', () => {
  it('reports a 421 greeting of an MX as a failed connection', () => {
    const socket = new FakeSocket();
    const pool = poolWith(socket);
    assert.equal(skipRefusingGreetings(pool as never), true);
    let result: [unknown, unknown] | undefined;
    pool.get_client?.({ from_dns: 'mx.busy.test' }, (err, s) => (result = [err, s]));
    assert.equal(result, undefined, 'nothing before the greeting');
    socket.emit('line', '421-busy.test too many\r\n');
    socket.emit('line', '421 4.7.0 try again later\r\n');
    assert.match(String(result?.[0]), /greeting refused: 421 4\.7\.0/);
    assert.equal(result?.[1], null);
    assert.equal(socket.destroyed, true);
  });

  it('hands a 220 greeting on, replaying every line to the handler Haraka attaches', () => {
    const socket = new FakeSocket();
    const pool = poolWith(socket);
    skipRefusingGreetings(pool as never);
    const seen: string[] = [];
    pool.get_client?.({ from_dns: 'mx.ok.test' }, (err, s) => {
      assert.equal(err, null);
      (s as FakeSocket).on('line', (l: string) => seen.push(l));
    });
    socket.emit('line', '220-ok.test ESMTP\r\n');
    socket.emit('line', '220 ready\r\n');
    assert.deepEqual(seen, ['220-ok.test ESMTP\r\n', '220 ready\r\n']);
    assert.equal(socket.listenerCount('error'), 0, 'our listeners are gone');
  });

  it('leaves the relay (no from_dns) to Haraka', () => {
    const socket = new FakeSocket();
    const pool = poolWith(socket);
    skipRefusingGreetings(pool as never);
    let handed: unknown;
    pool.get_client?.({}, (_err, s) => (handed = s));
    assert.equal(handed, socket, 'handed over before any greeting');
  });
});
