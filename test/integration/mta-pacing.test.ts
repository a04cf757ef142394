// Per-destination back-off (issue 22, item 2) through the real MX path: the real mta process, the
// fake DNS answering MX/A for two destinations, and two SMTP sinks on loopback addresses (the
// test-only OUTBOUND_MX_PORT), one of which throttles (421). The throttled destination backs off as a whole: a second
// message to it is held without a connection and its deferral says until when, while mail to the
// other destination is delivered at once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { DestinationGaugeValues } from '../../src/mta/destination-metrics';
import { readSnapshot } from '../../src/mta/destination-metrics';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { waitUntil } from '../helpers/wait-until';
import type { MtaProcess } from '../helpers/mta-process';
import { startMta } from '../helpers/mta-process';
import type { Fixture } from '../helpers/outbound-mta';
import {
  inject,
  insertEmail,
  mtaEnv,
  outcomes,
  prepareDatabase,
  stop,
  waitForOutcome,
} from '../helpers/outbound-mta';

// Loopback addresses no other test uses for its MX sinks.
const SLOW_IP = '127.0.22.2';
const FAST_IP = '127.0.22.3';

describe('mta per-destination back-off', () => {
  const domain = 'shop-pacing.com';
  let dnsServer: FakeDns;
  let f: Fixture;
  let mta: MtaProcess;
  let injectPort: number;
  let slow: SmtpSink;
  let fast: SmtpSink;
  let env: Record<string, string>;

  before(async () => {
    dnsServer = await startDnsServer();
    f = await prepareDatabase(dnsServer, domain);
    // Two recipient domains served by one MX provider (slow-provider.test), one by another.
    dnsServer.set('slow-a.test', 'MX', [{ exchange: 'mx1.slow-provider.test', priority: 10 }]);
    dnsServer.set('slow-b.test', 'MX', [{ exchange: 'mx2.slow-provider.test', priority: 10 }]);
    dnsServer.set('mx1.slow-provider.test', 'A', [SLOW_IP]);
    dnsServer.set('mx2.slow-provider.test', 'A', [SLOW_IP]);
    dnsServer.set('fast.test', 'MX', [{ exchange: 'mx.fast-provider.test', priority: 10 }]);
    dnsServer.set('mx.fast-provider.test', 'A', [FAST_IP]);
    // Both MX sinks on one free port, OUTBOUND_MX_PORT standing in for 25 (test-only setting).
    const [mxPort] = (await freePorts(1)) as [number];
    slow = await startSmtpSink({ host: SLOW_IP, port: mxPort });
    fast = await startSmtpSink({ host: FAST_IP, port: mxPort });
    // One message a minute to capped-provider.test (src/mta/destination-limits.ts).
    dnsServer.set('capped.test', 'MX', [{ exchange: 'mx.capped-provider.test', priority: 10 }]);
    dnsServer.set('mx.capped-provider.test', 'A', [FAST_IP]);
    // One delivery at a time to stalled-provider.test.
    dnsServer.set('stall.test', 'MX', [{ exchange: 'mx.stalled-provider.test', priority: 10 }]);
    dnsServer.set('mx.stalled-provider.test', 'A', [FAST_IP]);
    fs.writeFileSync(
      path.join(f.dataDir, 'destination-limits.json'),
      JSON.stringify({
        'capped-provider.test': { perMinute: 1 },
        'stalled-provider.test': { concurrency: 1 },
      }),
    );
    env = {
      ...(await mtaEnv(f, dnsServer, undefined)),
      // Loopback MX addresses: refused by the outbound guard unless opened.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_MX_PORT: String(slow.port),
    };
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await slow.close();
    await fast.close();
    await dnsServer.close();
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });

  it('backs a throttling destination off as a whole while another keeps flowing', async () => {
    slow.setRecipientBehaviour('first@slow-a.test', { code: 421, message: '4.7.0 Try again later' });
    const first = await insertEmail(f);
    await inject(injectPort, { emailId: first, domain, to: ['first@slow-a.test'] });
    const throttled = await waitForOutcome(f.db, first, (p) => p.outcome === 'deferred');
    assert.equal(throttled.smtpCode, 421);

    // Another recipient domain of the same provider: held back without a connection.
    const second = await insertEmail(f);
    await inject(injectPort, { emailId: second, domain, to: ['second@slow-b.test'] });
    const held = await waitForOutcome(f.db, second, (p) => p.outcome === 'deferred');
    assert.match(
      held.response,
      /^waiting: destination slow-provider\.test is throttling us until \d\d:\d\d UTC$/,
    );
    assert.equal(held.smtpCode, null);
    assert.equal(held.enhancedStatus, '4.4.5');
    assert.equal(slow.rcptAttempts('second@slow-b.test'), 0, 'no connection during the back-off');
    // What /metrics shows (src/mta/destination-metrics.ts): the numbers the mta leaves in
    // DATA_DIR, rewritten every 5 s.
    const snapshotDeadline = Date.now() + 15_000;
    let entry: DestinationGaugeValues | undefined;
    while (
      (entry = (await readSnapshot(f.dataDir))?.destinations.find(
        (d) => d.destination === 'slow-provider.test',
      )) === undefined ||
      entry.deferredLastHour < 2
    ) {
      assert.ok(Date.now() < snapshotDeadline, 'snapshot with slow-provider.test');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(entry.backedOff, 1);
    assert.ok(entry.backoffRemainingSeconds > 0);

    // Another destination: delivered as fast as ever (generous bound: one attempt, no retry).
    const third = await insertEmail(f);
    const started = performance.now();
    await inject(injectPort, { emailId: third, domain, to: ['third@fast.test'] });
    await waitForOutcome(f.db, third, (p) => p.outcome === 'delivered');
    assert.ok(performance.now() - started < 4_000, `delivered in ${performance.now() - started} ms`);
    assert.deepEqual(
      fast.messages.map((m) => m.rcptTo),
      [['third@fast.test']],
    );

    // The throttled message is retried at the back-off's end (≥ 45 s), not at MTA_RETRY_INTERVALS (5 s).
    await new Promise((r) => setTimeout(r, 7_000));
    assert.equal(slow.rcptAttempts('first@slow-a.test'), 1);
  });

  it('keeps the back-off across an mta restart', async () => {
    const file = path.join(f.dataDir, 'mta-backoff.json');
    await waitUntil('the back-off on disk', () => fs.existsSync(file));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    await stop(mta);
    mta = await startMta(env);
    await waitUntil('restored at start', () =>
      mta.stdout.some((l) => l.includes('"mta_destination_backoff_restored"')),
    );
    const fourth = await insertEmail(f);
    await inject(injectPort, { emailId: fourth, domain, to: ['fourth@slow-a.test'] });
    const held = await waitForOutcome(f.db, fourth, (p) => p.outcome === 'deferred');
    assert.match(
      held.response,
      /^waiting: destination slow-provider\.test is throttling us until \d\d:\d\d UTC$/,
    );
    assert.equal(slow.rcptAttempts('fourth@slow-a.test'), 0, 'not hammered after the restart');
  });

  it('holds a destination at its per-minute cap without a connection: one waiting note', async () => {
    const one = await insertEmail(f);
    const two = await insertEmail(f);
    await inject(injectPort, { emailId: one, domain, to: ['one@capped.test'] });
    await waitForOutcome(f.db, one, (p) => p.outcome === 'delivered');
    await inject(injectPort, { emailId: two, domain, to: ['two@capped.test'] });
    const held = await waitForOutcome(f.db, two, (p) => p.outcome === 'deferred');
    assert.equal(held.response, 'waiting: destination capped-provider.test at its limit');
    assert.equal(held.enhancedStatus, '4.4.5');
    assert.equal(held.attempt, 1, 'no attempt was made');
    assert.equal(fast.rcptAttempts('two@capped.test'), 0, 'no connection at the cap');
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(
      (await outcomes(f.db, two)).map((o) => o.response),
      ['waiting: destination capped-provider.test at its limit'],
    );
  });

  it('re-checks a message at the concurrency cap within seconds, one note, no attempt spent', async () => {
    // The first delivery stays in flight (its RCPT answered after 10 s): the cap of one is full.
    fast.setRecipientDelay('slow@stall.test', 10_000);
    const first = await insertEmail(f);
    const second = await insertEmail(f);
    await inject(injectPort, { emailId: first, domain, to: ['slow@stall.test'] });
    await waitUntil('the first delivery in flight', () => fast.rcptAttempts('slow@stall.test') === 1);
    await inject(injectPort, { emailId: second, domain, to: ['next@stall.test'] });
    const held = await waitForOutcome(f.db, second, (p) => p.outcome === 'deferred');
    assert.equal(held.response, 'waiting: destination stalled-provider.test at its limit');
    // Re-checked when a slot may be free (1-2 s, jittered), not every 5 s nor at the retry
    // interval: several holds logged while the first is in flight, one note on the timeline.
    const holds = () =>
      mta.stdout.filter((l) => l.includes('"mta_destination_held"') && l.includes('stall.test')).length;
    await waitUntil('re-checked', () => holds() >= 4, 10_000);
    const delivered = await waitForOutcome(f.db, second, (p) => p.outcome === 'delivered');
    // Every hold gave its num_failures back: delivered on attempt 1.
    assert.equal(delivered.attempt, 1);
    assert.deepEqual(
      (await outcomes(f.db, second)).map((o) => o.outcome),
      ['deferred', 'delivered'],
      `one note per hold period (${holds()} holds)`,
    );
  });
});
