// The sender's delivery engine (src/sender: resolveRoute, deliver, ConnectionPool) driven directly
// against SMTP sinks on loopback addresses of 127.0.0.0/8 sharing one port (the test-only
// OUTBOUND_MX_PORT path) and the fake DNS server: the semantics of the MX path, outbound and TLS
// tests of the Haraka path (mta-mx-path, mta-outbound, delivery-tls, dead-domain-bounce), now of
// our own SMTP client. The worker delivers with it under OUTBOUND_SENDER=worker (test/integration/emails-delivery).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/mta/destination-limits';
import { outboundGuardFromConfig } from '../../src/mail/address-guard';
import { ConnectionPool } from '../../src/sender/connection-pool';
import type { RecipientResult } from '../../src/sender/deliver';
import { deliver } from '../../src/sender/deliver';
import type { RelaySettings, RouteDeps } from '../../src/sender/route';
import { resolveRoute } from '../../src/sender/route';
import { RFC5321_TIMEOUTS } from '../../src/sender/smtp-link';
import { createDnsResolver } from '../../src/shared/dns-resolver';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePort } from '../helpers/free-port';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';

const FROM = 'bounce+em_01sendertest@bounce.shop.test';
const MESSAGE = Buffer.from(
  'From: Shop <hello@shop.test>\r\nTo: someone@example.test\r\nSubject: Hi\r\nMessage-ID: <1@shop.test>\r\n\r\nHello.\r\n',
);
const TIMEOUTS = { ...RFC5321_TIMEOUTS, connectMs: 5_000, greetingMs: 10_000 };

describe('sender: delivery to the MX over loopback', () => {
  let dns: FakeDns;
  let port: number;
  let pool: ConnectionPool;
  let routeDeps: RouteDeps;
  const sinks = new Map<string, SmtpSink>();

  const sink = async (host: string, options: Parameters<typeof startSmtpSink>[0] = {}) => {
    const started = await startSmtpSink({ host, port, name: `mx.${host}`, ...options });
    sinks.set(host, started);
    return started;
  };
  const send = async (domain: string, to: string[], relay?: RelaySettings): Promise<RecipientResult[]> => {
    const route = await resolveRoute(domain, { ...routeDeps, relay });
    return deliver(route, { from: FROM, to }, MESSAGE, { pool });
  };
  const mx = (domain: string, hosts: readonly (readonly [string, number, string])[]) => {
    dns.set(
      domain,
      'MX',
      hosts.map(([name, priority]) => ({ exchange: name, priority })),
    );
    for (const [name, , ip] of hosts) dns.set(name, 'A', [ip]);
  };

  before(async () => {
    dns = await startDnsServer();
    port = await freePort();
    routeDeps = {
      dns: createDnsResolver({ servers: [{ host: dns.host, port: dns.port }] }),
      guard: outboundGuardFromConfig({ outboundAllowPrivate: true }),
      path: { ipv6: false, port },
    };
    await sink('127.0.0.41');
    await sink('127.0.0.42');
    await sink('127.0.0.43', { greeting: { code: 421, message: 'too many connections, try later' } });
    await sink('127.0.0.44', { disabledCommands: ['STARTTLS'] });
  });
  beforeEach(() => {
    pool = new ConnectionPool({ name: 'mail.sender.test', limits: () => DEFAULT_LIMITS, timeouts: TIMEOUTS });
    for (const s of sinks.values()) s.reset();
  });
  after(async () => {
    pool.close();
    await Promise.all([...sinks.values()].map((s) => s.close()));
    await dns.close();
  });

  it('delivers to the preferred MX over STARTTLS, as MAIL_HOSTNAME, from the VERP return path', async () => {
    mx('prio.test', [
      ['mx2.prio.test', 20, '127.0.0.42'],
      ['mx1.prio.test', 10, '127.0.0.41'],
    ]);
    const [result] = await send('prio.test', ['Someone@Prio.test']);
    assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
    assert.equal(result?.recipient, 'someone@prio.test');
    assert.equal(result?.smtpCode, 250);
    assert.equal(result?.host, 'mx1.prio.test');
    assert.match(result?.tls ?? '', /^TLSv1\.[23] \S+/);
    const [got] = sinks.get('127.0.0.41')!.messages;
    assert.equal(got?.mailFrom, FROM);
    assert.deepEqual(got?.rcptTo, ['Someone@Prio.test']);
    assert.equal(got?.helo, 'mail.sender.test');
    assert.equal(got?.secure, true);
    assert.equal(got?.raw.toString(), MESSAGE.toString());
    assert.equal(sinks.get('127.0.0.42')!.messages.length, 0);
  });

  it('falls back to the next MX when the preferred one refuses the connection', async () => {
    // Nothing listens on 127.0.0.49: connection refused.
    mx('refused.test', [
      ['mx1.refused.test', 10, '127.0.0.49'],
      ['mx2.refused.test', 20, '127.0.0.42'],
    ]);
    const [result] = await send('refused.test', ['a@refused.test']);
    assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
    assert.equal(result?.host, 'mx2.refused.test');
    assert.equal(sinks.get('127.0.0.42')!.messages.length, 1);
  });

  it('falls back to the next MX when the preferred one greets with 421', async () => {
    mx('busy.test', [
      ['mx1.busy.test', 10, '127.0.0.43'],
      ['mx2.busy.test', 20, '127.0.0.41'],
    ]);
    const [result] = await send('busy.test', ['a@busy.test']);
    assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
    assert.equal(result?.host, 'mx2.busy.test');
    assert.equal(sinks.get('127.0.0.43')!.connections > 0, true);
  });

  it('defers with the last reply when every MX refuses, and with "Tried all MXs" when none answered', async () => {
    mx('allbusy.test', [['mx1.allbusy.test', 10, '127.0.0.43']]);
    const [busy] = await send('allbusy.test', ['a@allbusy.test']);
    assert.equal(busy?.outcome, 'deferred');
    assert.equal(busy?.smtpCode, 421);
    assert.match(busy?.response ?? '', /too many connections/);
    mx('down.test', [['mx1.down.test', 10, '127.0.0.49']]);
    const [down] = await send('down.test', ['a@down.test']);
    assert.equal(down?.outcome, 'deferred');
    assert.equal(down?.smtpCode, null);
    assert.equal(down?.host, null);
    assert.equal(down?.tls, null);
    assert.match(down?.response ?? '', /^Tried all MXs: mx1\.down\.test \[127\.0\.0\.49\]: .*ECONNREFUSED/);
  });

  it('uses the implicit MX when the domain has only an address', async () => {
    dns.set('implicit.test', 'A', ['127.0.0.42']);
    const [result] = await send('implicit.test', ['a@implicit.test']);
    assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
    assert.equal(result?.host, 'implicit.test');
  });

  it('bounces every recipient of a null MX domain with 5.1.10 and connects nowhere', async () => {
    dns.set('nullmx.test', 'MX', [{ exchange: '', priority: 0 }]);
    const before = [...sinks.values()].reduce((n, s) => n + s.connections, 0);
    const results = await send('nullmx.test', ['a@nullmx.test', 'b@nullmx.test']);
    assert.deepEqual(
      results.map((r) => [r.recipient, r.outcome, r.enhancedStatus, r.smtpCode]),
      [
        ['a@nullmx.test', 'bounced', '5.1.10', null],
        ['b@nullmx.test', 'bounced', '5.1.10', null],
      ],
    );
    assert.equal(
      [...sinks.values()].reduce((n, s) => n + s.connections, 0),
      before,
    );
  });

  it('gives each recipient its own RCPT outcome: a 4xx defers only that one, a 5xx bounces it', async () => {
    mx('rcpt.test', [['mx1.rcpt.test', 10, '127.0.0.41']]);
    const target = sinks.get('127.0.0.41')!;
    target.setRecipientBehaviour('busy@rcpt.test', { code: 450, message: '4.2.1 Mailbox busy, try later' });
    target.setRecipientBehaviour('gone@rcpt.test', { code: 550, message: '5.1.1 No such user' });
    const results = await send('rcpt.test', ['ok@rcpt.test', 'busy@rcpt.test', 'gone@rcpt.test']);
    assert.deepEqual(
      results.map((r) => [r.recipient, r.outcome, r.smtpCode, r.enhancedStatus, r.host]),
      [
        ['ok@rcpt.test', 'delivered', 250, null, 'mx1.rcpt.test'],
        ['busy@rcpt.test', 'deferred', 450, '4.2.1', 'mx1.rcpt.test'],
        ['gone@rcpt.test', 'bounced', 550, '5.1.1', 'mx1.rcpt.test'],
      ],
    );
    assert.equal(results[2]?.response, 'No such user');
    assert.match(results[2]?.tls ?? '', /^TLSv1/);
    assert.deepEqual(
      target.messages.map((m) => m.rcptTo),
      [['ok@rcpt.test']],
    );
  });

  it('bounces every recipient when all are refused, and reports a refusal after DATA for all', async () => {
    mx('refuse.test', [['mx1.refuse.test', 10, '127.0.0.41']]);
    const target = sinks.get('127.0.0.41')!;
    target.setRecipientBehaviour('x@refuse.test', { code: 550, message: '5.1.1 No such user' });
    target.setRecipientBehaviour('y@refuse.test', { code: 451, message: '4.3.0 Try later' });
    const refused = await send('refuse.test', ['x@refuse.test', 'y@refuse.test']);
    assert.deepEqual(
      refused.map((r) => [r.outcome, r.smtpCode]),
      [
        ['bounced', 550],
        ['deferred', 451],
      ],
    );
    target.reset();
    target.setDataBehaviour({ code: 554, message: '5.7.1 Message rejected as spam' });
    const data = await send('refuse.test', ['p@refuse.test', 'q@refuse.test']);
    assert.deepEqual(
      data.map((r) => [r.outcome, r.smtpCode, r.enhancedStatus]),
      [
        ['bounced', 554, '5.7.1'],
        ['bounced', 554, '5.7.1'],
      ],
    );
    // The session survived both (RSET): the next message reuses it.
    target.reset();
    const [next] = await send('refuse.test', ['r@refuse.test']);
    assert.equal(next?.outcome, 'delivered');
    assert.equal(pool.opened, 1);
  });

  it('moves the pending recipients to the next MX on a 421 mid-session, and never reuses that session', async () => {
    mx('closing.test', [
      ['mx1.closing.test', 10, '127.0.0.41'],
      ['mx2.closing.test', 20, '127.0.0.42'],
    ]);
    const primary = sinks.get('127.0.0.41')!;
    primary.setRecipientBehaviour('b@closing.test', { code: 421, message: '4.7.0 Closing connection' });
    const results = await send('closing.test', ['a@closing.test', 'b@closing.test']);
    assert.deepEqual(
      results.map((r) => [r.outcome, r.host]),
      [
        ['delivered', 'mx2.closing.test'],
        ['delivered', 'mx2.closing.test'],
      ],
    );
    assert.equal(primary.messages.length, 0, 'the transaction at the primary was abandoned');
    // Alone, the 421 defers (a destination-level answer), and the next message opens a new session.
    mx('closing1.test', [['mx1.closing1.test', 10, '127.0.0.41']]);
    primary.setRecipientBehaviour('b@closing1.test', { code: 421, message: '4.7.0 Closing connection' });
    const [deferred] = await send('closing1.test', ['b@closing1.test']);
    assert.deepEqual([deferred?.outcome, deferred?.smtpCode], ['deferred', 421]);
    const connections = primary.connections;
    const [again] = await send('closing1.test', ['c@closing1.test']);
    assert.equal(again?.outcome, 'delivered');
    assert.equal(primary.connections, connections + 1);
  });

  it('records plaintext when the MX offers no STARTTLS', async () => {
    mx('plain.test', [['mx1.plain.test', 10, '127.0.0.44']]);
    const [result] = await send('plain.test', ['a@plain.test']);
    assert.equal(result?.outcome, 'delivered');
    assert.equal(result?.tls, 'plaintext');
    assert.equal(sinks.get('127.0.0.44')!.messages[0]?.secure, false);
  });

  it('leaves from OUTBOUND_SOURCE_ADDRESS(_V6), prefers IPv6, and skips AAAA with OUTBOUND_IPV6 off', async () => {
    const v6 = await startSmtpSink({ host: '::1', port, name: 'mx.v6' });
    try {
      dns.set('dual.test', 'MX', [{ exchange: 'mx.dual.test', priority: 10 }]);
      dns.set('mx.dual.test', 'A', ['127.0.0.41']);
      dns.set('mx.dual.test', 'AAAA', ['::1']);
      dns.set('v4.test', 'MX', [{ exchange: 'mx.v4.test', priority: 10 }]);
      dns.set('mx.v4.test', 'A', ['127.0.0.41']);
      const path = { ipv6: true, port, sourceV4: '127.0.0.77', sourceV6: '::1' };
      const v4Route = await resolveRoute('v4.test', { ...routeDeps, path });
      const [four] = await deliver(v4Route, { from: FROM, to: ['a@v4.test'] }, MESSAGE, { pool });
      assert.equal(four?.outcome, 'delivered', JSON.stringify(four));
      assert.equal(sinks.get('127.0.0.41')!.messages[0]?.remoteAddress, '127.0.0.77');
      const dualRoute = await resolveRoute('dual.test', { ...routeDeps, path });
      const [both] = await deliver(dualRoute, { from: FROM, to: ['b@dual.test'] }, MESSAGE, { pool });
      assert.equal(both?.outcome, 'delivered', JSON.stringify(both));
      assert.equal(v6.messages[0]?.remoteAddress, '::1', 'IPv6 first where both exist');
      const v6Connections = v6.connections;
      const [off] = await send('dual.test', ['c@dual.test']);
      assert.equal(off?.outcome, 'delivered');
      assert.equal(v6.connections, v6Connections, 'OUTBOUND_IPV6=false: no IPv6 connection');
      assert.equal(sinks.get('127.0.0.41')!.messages.length, 2);
    } finally {
      await v6.close();
    }
  });

  it('sends through SMTP_RELAY with AUTH after STARTTLS, ignoring the MX', async () => {
    const relay = await startSmtpSink({ auth: { user: 'relay-user', pass: 'relay-secret' } });
    try {
      mx('viarelay.test', [['mx1.viarelay.test', 10, '127.0.0.41']]);
      const settings = {
        host: relay.host,
        port: relay.port,
        auth: { user: 'relay-user', pass: 'relay-secret' },
      };
      const [result] = await send('viarelay.test', ['a@viarelay.test'], settings);
      assert.equal(result?.outcome, 'delivered', JSON.stringify(result));
      assert.equal(relay.messages[0]?.user, 'relay-user');
      assert.equal(relay.messages[0]?.secure, true);
      assert.equal(sinks.get('127.0.0.41')!.messages.length, 0);
      const [wrong] = await send('viarelay.test', ['b@viarelay.test'], {
        ...settings,
        auth: { user: 'relay-user', pass: 'wrong' },
      });
      assert.equal(wrong?.outcome, 'deferred');
      assert.equal(wrong?.smtpCode, 535);
    } finally {
      await relay.close();
    }
  });

  it('delivers a burst of 100 messages to one domain over at most its concurrency of connections', async () => {
    mx('burst.test', [['mx1.burst.test', 10, '127.0.0.42']]);
    const target = sinks.get('127.0.0.42')!;
    const before = target.connections;
    const cap = 3;
    pool = new ConnectionPool({
      name: 'mail.sender.test',
      limits: () => ({ ...DEFAULT_LIMITS, 'burst.test': { concurrency: cap, perMinute: 1000 } }),
      timeouts: TIMEOUTS,
    });
    const route = await resolveRoute('burst.test', routeDeps);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        deliver(route, { from: FROM, to: [`r${i}@burst.test`] }, MESSAGE, { pool }),
      ),
    );
    assert.deepEqual(new Set(results.map((r) => r[0]?.outcome)), new Set(['delivered']));
    assert.equal(target.messages.length, 100);
    const opened = target.connections - before;
    assert.ok(opened <= cap, `at most the destination's concurrency: ${opened} connections`);
    assert.ok(opened >= 1);
    assert.equal(pool.opened, opened);
    assert.ok(Math.max(...pool.openCounts().values()) <= cap);
  });

  it('closes a connection after its cap of messages and opens the next', async () => {
    mx('reuse.test', [['mx1.reuse.test', 10, '127.0.0.42']]);
    const target = sinks.get('127.0.0.42')!;
    const before = target.connections;
    pool = new ConnectionPool({
      name: 'mail.sender.test',
      limits: () => DEFAULT_LIMITS,
      timeouts: TIMEOUTS,
      maxMessages: 4,
    });
    for (let i = 0; i < 10; i++) {
      const [result] = await send('reuse.test', [`s${i}@reuse.test`]);
      assert.equal(result?.outcome, 'delivered');
    }
    assert.equal(target.connections - before, 3, '4 + 4 + 2 messages');
  });
});
