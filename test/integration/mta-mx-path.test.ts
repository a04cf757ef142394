// Issue 22 item 1: delivery straight to the recipients' MX, without SMTP_RELAY, end to end.
// The real mta process looks every domain up in the fake DNS and connects to SMTP sinks, one
// per MX, each on its own loopback address (127.0.0.0/8, ::1) and all on one port: the
// test-only OUTBOUND_MX_PORT stands in for port 25 so no test needs root or a fixed port.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { freePorts } from '../helpers/free-port';
import type { MtaProcess } from '../helpers/mta-process';
import { startMta } from '../helpers/mta-process';
import type { Fixture } from '../helpers/outbound-mta';
import { inject, insertEmail, mtaEnv, prepareDatabase, stop, waitForOutcome } from '../helpers/outbound-mta';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';

/** Loopback addresses: one per MX, and the source address the appliance is told to use. */
const PRIMARY = '127.0.0.11';
const BACKUP = '127.0.0.12';
const DEAD = '127.0.0.13'; // nothing listens: connections are refused
const BUSY = '127.0.0.14'; // greets with 421
const SOURCE = '127.0.0.2';

interface World {
  readonly dns: FakeDns;
  readonly port: number;
  readonly primary: SmtpSink;
  readonly backup: SmtpSink;
  readonly busy: SmtpSink;
  readonly v6: SmtpSink;
}

/** The sinks and the zone every test domain lives in. */
async function startWorld(): Promise<World> {
  const dns = await startDnsServer();
  const [port] = (await freePorts(1)) as [number];
  const primary = await startSmtpSink({ host: PRIMARY, port, name: 'primary.test' });
  const backup = await startSmtpSink({ host: BACKUP, port, name: 'backup.test' });
  const busy = await startSmtpSink({
    host: BUSY,
    port,
    greeting: { code: 421, message: '4.7.0 Too many connections, try again later' },
  });
  const v6 = await startSmtpSink({ host: '::1', port, name: 'v6.test' });
  dns.set('mx1.sinks.test', 'A', [PRIMARY]);
  dns.set('mx2.sinks.test', 'A', [BACKUP]);
  dns.set('dead.sinks.test', 'A', [DEAD]);
  dns.set('busy.sinks.test', 'A', [BUSY]);
  dns.set('v6only.sinks.test', 'AAAA', ['::1']);
  dns.set('dual.sinks.test', 'AAAA', ['::1']);
  dns.set('dual.sinks.test', 'A', [PRIMARY]);
  // Listed backup first: the order of the answer must not matter, the preference does.
  dns.set('prio.test', 'MX', [
    { exchange: 'mx2.sinks.test', priority: 20 },
    { exchange: 'mx1.sinks.test', priority: 10 },
  ]);
  dns.set('refused.test', 'MX', [
    { exchange: 'dead.sinks.test', priority: 10 },
    { exchange: 'mx2.sinks.test', priority: 20 },
  ]);
  dns.set('busy.test', 'MX', [
    { exchange: 'busy.sinks.test', priority: 10 },
    { exchange: 'mx2.sinks.test', priority: 20 },
  ]);
  dns.set('implicit.test', 'A', [PRIMARY]); // RFC 5321 §5.1: no MX, the A record is the MX
  dns.set('nullmx.test', 'MX', [{ exchange: '', priority: 0 }]); // RFC 7505 "0 ."
  dns.set('nullmx.test', 'A', [PRIMARY]); // must not be used as an implicit MX
  dns.set('partial.test', 'MX', [{ exchange: 'mx1.sinks.test', priority: 10 }]);
  dns.set('servfail.test', 'MX', [{ exchange: 'mx1.sinks.test', priority: 10 }]);
  dns.fail('servfail.test', 'SERVFAIL');
  dns.set('timeout.test', 'MX', [{ exchange: 'mx1.sinks.test', priority: 10 }]);
  dns.fail('timeout.test', 'TIMEOUT');
  dns.set('v6.test', 'MX', [{ exchange: 'v6only.sinks.test', priority: 10 }]);
  dns.set('dual.test', 'MX', [{ exchange: 'dual.sinks.test', priority: 10 }]);
  return { dns, port, primary, backup, busy, v6 };
}

async function stopWorld(w: World): Promise<void> {
  await Promise.all([w.primary.close(), w.backup.close(), w.busy.close(), w.v6.close()]);
  await w.dns.close();
}

/** The sink message carrying `recipient`, once it has arrived. */
async function received(
  sink: SmtpSink,
  recipient: string,
  timeoutMs = 20_000,
): Promise<SmtpSink['messages'][number]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = sink.messages.find((m) => m.rcptTo.includes(recipient));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`${recipient} did not reach ${sink.address}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function mxEnv(f: Fixture, w: World, extra: Record<string, string>): Promise<Record<string, string>> {
  return {
    ...(await mtaEnv(f, w.dns, undefined)),
    // The sinks are on loopback, which the outbound guard refuses unless opened.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    OUTBOUND_MX_PORT: String(w.port),
    ...extra,
  };
}

describe("mta delivery to the recipients' MX, without SMTP_RELAY", () => {
  const domain = 'shop-mxpath.com';
  let w: World;
  let f: Fixture;
  let mta: MtaProcess;
  let injectPort: number;

  before(async () => {
    w = await startWorld();
    f = await prepareDatabase(w.dns, domain);
    const env = await mxEnv(f, w, { OUTBOUND_SOURCE_ADDRESS: SOURCE, OUTBOUND_SOURCE_ADDRESS_V6: '::1' });
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await stopWorld(w);
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });

  it('delivers to the most preferred MX, from OUTBOUND_SOURCE_ADDRESS', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['first@prio.test'] });
    const message = await received(w.primary, 'first@prio.test');
    assert.equal(message.remoteAddress, SOURCE, 'the connection left from 127.0.0.2');
    const delivered = await waitForOutcome(f.db, emailId, (p) => p.outcome === 'delivered');
    assert.equal(delivered.attempt, 1);
    assert.equal(w.backup.rcptAttempts('first@prio.test'), 0, 'the backup MX was not tried');
  });

  it('falls back to the next MX when the first refuses connections or greets with 421', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['a@refused.test', 'b@busy.test'] });
    assert.equal((await received(w.backup, 'a@refused.test')).remoteAddress, SOURCE);
    await received(w.backup, 'b@busy.test');
    assert.ok(w.busy.connections >= 1, 'the 421 MX was tried first');
    for (const recipient of ['a@refused.test', 'b@busy.test']) {
      const outcome = await waitForOutcome(f.db, emailId, (p) => p.recipient === recipient);
      assert.equal(outcome.outcome, 'delivered', `${recipient}: ${outcome.response}`);
      assert.equal(outcome.attempt, 1, 'the fallback is part of the same attempt');
    }
  });

  it('uses the A record of a domain without MX (RFC 5321 §5.1)', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['someone@implicit.test'] });
    await received(w.primary, 'someone@implicit.test');
    const delivered = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'someone@implicit.test');
    assert.equal(delivered.outcome, 'delivered');
  });

  it('hard-bounces a null-MX domain (RFC 7505) at once, NXDOMAIN too; SERVFAIL defers', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, {
      emailId,
      domain,
      to: ['x@nullmx.test', 'y@nxdomain-path.test', 'z@servfail.test'],
    });
    const nullMx = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'x@nullmx.test');
    assert.deepEqual([nullMx.outcome, nullMx.enhancedStatus, nullMx.attempt], ['bounced', '5.1.10', 1]);
    assert.match(nullMx.response, /nullmx\.test .*no email \(NULL MX\)/);
    assert.equal(w.primary.rcptAttempts('x@nullmx.test'), 0, 'its A record is not an implicit MX');

    const nx = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'y@nxdomain-path.test');
    assert.deepEqual([nx.outcome, nx.enhancedStatus, nx.attempt], ['bounced', '5.1.2', 1]);
    assert.match(nx.response, /nxdomain-path\.test/);

    const servfail = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'z@servfail.test');
    assert.deepEqual([servfail.outcome, servfail.attempt], ['deferred', 1]);
    assert.match(servfail.response, /DNS lookup failure/);
  });

  it('accepts some recipients of one domain and bounces the refused one', async () => {
    w.primary.setRecipientBehaviour('gone@partial.test', { code: 550, message: '5.1.1 No such user' });
    w.primary.setRecipientBehaviour('full@partial.test', { code: 452, message: '4.2.2 Mailbox full' });
    const emailId = await insertEmail(f);
    await inject(injectPort, {
      emailId,
      domain,
      to: ['one@partial.test', 'gone@partial.test'],
      cc: ['full@partial.test', 'two@partial.test'],
    });
    const outcome = async (r: string): Promise<string> => {
      const p = await waitForOutcome(f.db, emailId, (o) => o.recipient === r);
      return `${p.outcome} ${p.smtpCode ?? ''} ${p.enhancedStatus ?? ''}`.trim();
    };
    assert.equal(await outcome('one@partial.test'), 'delivered 250');
    assert.equal(await outcome('two@partial.test'), 'delivered 250');
    assert.equal(await outcome('gone@partial.test'), 'bounced 550 5.1.1');
    assert.equal(await outcome('full@partial.test'), 'deferred 452 4.2.2');
    assert.equal(w.primary.messages.filter((m) => m.rcptTo.includes('gone@partial.test')).length, 0);
  });

  it('delivers over IPv6 from OUTBOUND_SOURCE_ADDRESS_V6, and prefers it when both exist', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['six@v6.test', 'both@dual.test'] });
    assert.equal((await received(w.v6, 'six@v6.test')).remoteAddress, '::1');
    await received(w.v6, 'both@dual.test');
    const delivered = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'six@v6.test');
    assert.equal(delivered.outcome, 'delivered');
  });
});

describe('mta delivery to an MX whose DNS does not answer', () => {
  const domain = 'shop-mxpath-timeout.com';
  let w: World;
  let f: Fixture;
  let mta: MtaProcess;
  let injectPort: number;

  before(async () => {
    w = await startWorld();
    f = await prepareDatabase(w.dns, domain);
    const env = await mxEnv(f, w, {});
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await stopWorld(w);
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });

  // The lookup runs twice (ours in get_mx, then Haraka's own, which classifies the error), each
  // until haraka-net-utils' resolver gives up (about 5 s each here): hence the generous bound.
  it('defers when the MX lookup times out', { timeout: 120_000 }, async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['late@timeout.test'] });
    const deferred = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'late@timeout.test', 90_000);
    assert.deepEqual([deferred.outcome, deferred.attempt], ['deferred', 1]);
    assert.match(deferred.response, /DNS lookup failure/);
    assert.equal(w.primary.rcptAttempts('late@timeout.test'), 0);
  });
});

describe('mta delivery to the MX with OUTBOUND_IPV6=false', () => {
  const domain = 'shop-mxpath4.com';
  let w: World;
  let f: Fixture;
  let mta: MtaProcess;
  let injectPort: number;

  before(async () => {
    w = await startWorld();
    f = await prepareDatabase(w.dns, domain);
    const env = await mxEnv(f, w, { OUTBOUND_IPV6: 'false' });
    injectPort = Number(env.MTA_INJECT_PORT);
    mta = await startMta(env);
  });

  after(async () => {
    await stop(mta);
    await f.db.destroy();
    await stopWorld(w);
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });

  it('skips AAAA addresses: IPv4 where there is one, a deferral where there is none', async () => {
    const emailId = await insertEmail(f);
    await inject(injectPort, { emailId, domain, to: ['both@dual.test', 'six@v6.test'] });
    const message = await received(w.primary, 'both@dual.test');
    assert.notEqual(message.remoteAddress, SOURCE, 'no source address set: the system chose');
    const six = await waitForOutcome(f.db, emailId, (p) => p.recipient === 'six@v6.test');
    assert.equal(six.outcome, 'deferred');
    assert.equal(w.v6.connections, 0, 'no IPv6 connection at all');
  });
});
