// Per-destination pacing of the worker's own sender (issue 31 item 3): the scenarios of the MTA's
// pacing test (mta-pacing.test.ts, Haraka's outbound) through OUTBOUND_SENDER=worker, over the whole
// appliance (api, worker, mta for inbound only), the fake DNS answering MX/A for several
// destinations, and SMTP sinks on loopback addresses through the test-only OUTBOUND_MX_PORT. A
// destination that throttles (421) backs off as a whole: its messages are held without a
// connection and spend no attempt (a held retry job is released, not retried), mail to other
// destinations and the open domains of the same message flow, the back-off survives a restart,
// the per-minute cap holds too, and the concurrency cap makes a message wait for its connection.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/connect';
import type { DeliveryFacts } from '../../src/modules/delivery/delivery-explanation';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import { freePorts } from '../helpers/free-port';
import { openApplianceDb } from '../helpers/open-database';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { waitUntil } from '../helpers/wait-until';

// Loopback addresses no other test uses for its MX sinks.
const SLOW_IP = '127.0.24.2';
const FAST_IP = '127.0.24.3';
const STALL_IP = '127.0.24.4';
const DOMAIN = 'sender-pacing.example.com';
const BACKOFF_S = 40;
const waiting = (destination: string) =>
  new RegExp(
    `^attempt (\\d+): waiting: destination ${destination.replace(/\./g, '\\.')} is throttling us until \\d\\d:\\d\\d UTC$`,
  );

/** The Email view's fields these tests read (the ones the delivery explanation reads too). */
type EmailView = Pick<DeliveryFacts, 'status' | 'attempts' | 'recipients' | 'events'>;

interface JobRow {
  readonly state: string;
  readonly attempts: number;
  readonly run_at: string;
  readonly payload: { emailId: string; deferred?: number; recipients?: string[] };
}

describe("the worker's sender paces per destination (OUTBOUND_SENDER=worker, fake DNS, MX sinks)", () => {
  let sending: SendingAppliance;
  let app: Appliance;
  let db: Db;
  let env: Record<string, string>;
  let slow: SmtpSink;
  let fast: SmtpSink;
  let stall: SmtpSink;

  before(async () => {
    const [mxPort] = (await freePorts(1)) as [number];
    slow = await startSmtpSink({ host: SLOW_IP, port: mxPort });
    fast = await startSmtpSink({ host: FAST_IP, port: mxPort });
    stall = await startSmtpSink({ host: STALL_IP, port: mxPort });
    env = {
      OUTBOUND_SENDER: 'worker',
      SMTP_RELAY: '',
      OUTBOUND_MX_PORT: String(mxPort),
      // Loopback MX addresses: refused by the outbound guard unless opened.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      // 30 to 50 s (±25 %): long enough for a restart within one, short enough to see one end.
      MTA_BACKOFF_BASE_S: String(BACKOFF_S),
      MTA_BACKOFF_MAX_S: String(BACKOFF_S),
      MTA_RETRY_INTERVALS: '5,5',
      RATE_LIMIT_EMAILS_PER_HOUR: '1000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
    };
    sending = await startSendingAppliance(DOMAIN, env);
    app = sending.app;
    db = openApplianceDb(app);
    const mx = (domain: string, host: string, ip: string) => {
      sending.dns.set(domain, 'MX', [{ exchange: host, priority: 10 }]);
      sending.dns.set(host, 'A', [ip]);
    };
    // Two recipient domains served by one provider (slow-provider.test), one by another.
    mx('slow-a.test', 'mx1.slow-provider.test', SLOW_IP);
    mx('slow-b.test', 'mx2.slow-provider.test', SLOW_IP);
    mx('fast.test', 'mx.fast-provider.test', FAST_IP);
    mx('restart-a.test', 'mx1.restart-provider.test', SLOW_IP);
    mx('restart-b.test', 'mx2.restart-provider.test', SLOW_IP);
    mx('grey-a.test', 'mx1.grey-provider.test', FAST_IP);
    mx('grey-b.test', 'mx2.grey-provider.test', FAST_IP);
    mx('capped.test', 'mx.capped-provider.test', FAST_IP);
    mx('stall.test', 'mx.stalled-provider.test', STALL_IP);
    // Read at the sender's first delivery (and every 10 s after): before any message is sent.
    fs.writeFileSync(
      path.join(app.dataDir, 'destination-limits.json'),
      JSON.stringify({
        'capped-provider.test': { perMinute: 1 },
        'stalled-provider.test': { concurrency: 1 },
      }),
    );
  });

  after(async () => {
    await db.destroy();
    await app.stop();
    await sending.sink.close();
    await sending.dns.close();
    for (const s of [slow, fast, stall]) await s.close();
  });

  async function send(to: string | string[]): Promise<string> {
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: sending.apiKey,
      body: { from: `news@${DOMAIN}`, to, subject: 'Pacing', text: 'Hello' },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.id;
  }

  async function view(id: string): Promise<EmailView> {
    const res = await app.api.get<EmailView>(`/v1/emails/${id}`, { token: sending.apiKey });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async function until(id: string, what: string, test: (v: EmailView) => boolean, ms = 30_000) {
    const deadline = Date.now() + ms;
    let last = await view(id);
    while (!test(last)) {
      if (Date.now() > deadline)
        assert.fail(
          `${what}: not seen in ${ms} ms: ${JSON.stringify(last.events.map((e) => e.message ?? e.type))}\n` +
            `${JSON.stringify(await jobs(id))}\n${app.lines
              .filter((l) => l.includes(id))
              .slice(-10)
              .join('\n')}`,
        );
      await new Promise((r) => setTimeout(r, 200));
      last = await view(id);
    }
    return last;
  }

  /** The delivery attempt of the `email_delivered` line the worker logged for the message. */
  function deliveredAttempt(emailId: string): number | undefined {
    for (const line of app.lines) {
      if (!line.includes('"email_delivered"') || !line.includes(emailId)) continue;
      const attempt = /"attempt":(\d+)/.exec(line)?.[1];
      return attempt === undefined ? undefined : Number(attempt);
    }
    return undefined;
  }

  const notes = (v: EmailView, pattern: RegExp) => v.events.filter((e) => pattern.test(e.message ?? ''));
  const recipient = (v: EmailView, email: string) => v.recipients.find((r) => r.email === email);

  async function jobs(emailId: string): Promise<JobRow[]> {
    const rows = await db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'run_at', 'payload'])
      .where('queue', '=', 'email-send')
      .execute();
    return rows
      .map((r) => ({ ...r, payload: JSON.parse(r.payload) as JobRow['payload'] }))
      .filter((r) => r.payload.emailId === emailId);
  }

  it('backs a throttling destination off as a whole; other destinations and domains keep flowing', async () => {
    slow.setRecipientBehaviour('first@slow-a.test', { code: 421, message: '4.7.0 Try again later' });
    const first = await send('first@slow-a.test');
    const throttled = await until(first, 'the 421 recorded', (v) =>
      v.events.some((e) => e.type === 'deferred'),
    );
    const deferral = throttled.events.find((e) => e.type === 'deferred');
    assert.match(deferral?.message ?? '', /^attempt 1: 421 /);
    const deferredAt = Date.parse(deferral?.createdAt ?? '');

    // One message to a domain of the same provider and to another destination: the open domain is
    // delivered, the held one waits without a connection.
    const second = await send(['second@slow-b.test', 'third@fast.test']);
    const split = await until(
      second,
      'the fast recipient delivered and the slow one held',
      (v) =>
        recipient(v, 'third@fast.test')?.status === 'delivered' &&
        notes(v, waiting('slow-provider.test')).length > 0,
    );
    assert.equal(recipient(split, 'second@slow-b.test')?.status, 'deferred');
    assert.match(
      recipient(split, 'second@slow-b.test')?.smtpResponse ?? '',
      /waiting: destination slow-provider\.test/,
    );
    assert.equal(
      notes(split, waiting('slow-provider.test'))[0]?.message?.match(waiting('slow-provider.test'))?.[1],
      '1',
    );
    assert.equal(split.attempts, 1);
    assert.equal(slow.rcptAttempts('second@slow-b.test'), 0, 'no connection during the back-off');
    assert.deepEqual(
      fast.messages.map((m) => m.rcptTo),
      [['third@fast.test']],
    );
    // The held recipient's job: the same delivery count (none made), due when the back-off ends.
    const [held] = (await jobs(second)).filter((j) => j.state === 'queued');
    assert.deepEqual(held?.payload, { emailId: second, deferred: 0, recipients: ['second@slow-b.test'] });
    assert.ok(Date.parse(held?.run_at ?? '') >= deferredAt + 0.75 * BACKOFF_S * 1000 - 1_000, held?.run_at);

    // The throttled message is retried at the back-off's end, not at MTA_RETRY_INTERVALS (5 s).
    const [retry] = (await jobs(first)).filter((j) => j.state === 'queued');
    assert.deepEqual(retry?.payload, { emailId: first, deferred: 1, recipients: ['first@slow-a.test'] });
    assert.ok(Date.parse(retry?.run_at ?? '') >= deferredAt + 0.75 * BACKOFF_S * 1000 - 1_000, retry?.run_at);
    await new Promise((r) => setTimeout(r, 7_000));
    assert.equal(slow.rcptAttempts('first@slow-a.test'), 1);

    // /metrics shows the back-off (the worker writes the gauges' snapshot every 5 s).
    const gauge = async (name: string): Promise<number | undefined> => {
      const res = await fetch(`${app.baseUrl}/metrics`, {
        headers: { 'x-internal-token': app.internalToken },
      });
      const line = (await res.text())
        .split('\n')
        .find((l) => l.startsWith(`${name}{destination="slow-provider.test"}`));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    await waitUntil(
      'the back-off on /metrics',
      async () => (await gauge('mail_destination_backed_off')) === 1,
      15_000,
    );
    assert.ok(((await gauge('mail_destination_deferred_last_hour')) ?? 0) >= 1);
  });

  it('keeps the back-off across a restart', async () => {
    slow.setRecipientBehaviour('one@restart-a.test', { code: 421, message: '4.7.0 Try again later' });
    const one = await send('one@restart-a.test');
    await until(one, 'the 421 recorded', (v) => v.events.some((e) => e.type === 'deferred'));
    const file = path.join(app.dataDir, 'sender-backoff.json');
    await waitUntil(
      'the back-off on disk',
      () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('restart-provider.test'),
    );
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    await app.stop();
    app = await startAppliance({
      dataDir: app.dataDir,
      env: { DNS_SERVERS: sending.dns.address, ...env },
    });
    await waitUntil('restored at start', () =>
      app.lines.some(
        (l) => l.includes('"sender_destination_backoff_restored"') && l.includes('restart-provider.test'),
      ),
    );
    const two = await send('two@restart-b.test');
    const held = await until(
      two,
      'held after the restart',
      (v) => notes(v, waiting('restart-provider.test')).length > 0,
    );
    assert.equal(recipient(held, 'two@restart-b.test')?.status, 'deferred');
    assert.equal(slow.rcptAttempts('two@restart-b.test'), 0, 'not hammered after the restart');
  });

  it('releases a retry that meets a back-off: no attempt spent, one note, delivered when it ends', async () => {
    // Mailbox busy at attempt 1 (not throttling: retried at its interval, 5 s) ...
    fast.setRecipientBehaviour('grey@grey-a.test', (n) =>
      n === 1 ? { code: 451, message: '4.2.0 Mailbox busy' } : 'accept',
    );
    // ... while its provider throttles another message meanwhile.
    fast.setRecipientBehaviour('hot@grey-b.test', (n) =>
      n === 1 ? { code: 421, message: '4.7.0 Try again later' } : 'accept',
    );
    const grey = await send('grey@grey-a.test');
    await until(grey, 'the busy mailbox recorded', (v) => v.events.some((e) => e.type === 'deferred'));
    const hot = await send('hot@grey-b.test');
    await until(hot, 'the 421 recorded', (v) => v.events.some((e) => e.type === 'deferred'));
    const held = await until(
      grey,
      'the retry held',
      (v) => notes(v, waiting('grey-provider.test')).length > 0,
    );
    assert.equal(
      notes(held, waiting('grey-provider.test'))[0]?.message?.match(waiting('grey-provider.test'))?.[1],
      '2',
    );
    // The retry job was given back, not failed: it has spent no attempt and waits for the back-off.
    await waitUntil('the retry job released', async () =>
      (await jobs(grey)).some((j) => j.payload.deferred === 1 && j.state === 'queued' && j.attempts === 0),
    );
    assert.equal(fast.rcptAttempts('grey@grey-a.test'), 1, 'no connection while held');

    const done = await until(
      grey,
      'delivered when the back-off ended',
      (v) => v.status === 'delivered',
      90_000,
    );
    const timeline = done.events.map((e) => e.message ?? e.type);
    assert.equal(
      notes(done, waiting('grey-provider.test')).length,
      1,
      `one note per hold period: ${JSON.stringify(timeline)}`,
    );
    assert.equal(deliveredAttempt(grey), 2, 'the hold spent no attempt');
    assert.equal(fast.rcptAttempts('grey@grey-a.test'), 2);
    await until(hot, 'the throttled one delivered too', (v) => v.status === 'delivered', 30_000);
  });

  it('holds a destination at its per-minute cap without a connection: one waiting note', async () => {
    const one = await send('one@capped.test');
    await until(one, 'the first delivered', (v) => v.status === 'delivered');
    const two = await send('two@capped.test');
    const atLimit = /^attempt 1: waiting: destination capped-provider\.test at its limit$/;
    const held = await until(two, 'held at the cap', (v) => notes(v, atLimit).length > 0);
    assert.equal(recipient(held, 'two@capped.test')?.status, 'deferred');
    assert.equal(held.attempts, 1);
    assert.equal(fast.rcptAttempts('two@capped.test'), 0, 'no connection at the cap');
    const [job] = (await jobs(two)).filter((j) => j.state === 'queued');
    assert.deepEqual(job?.payload, { emailId: two, deferred: 0, recipients: ['two@capped.test'] });
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(notes(await view(two), /waiting/).length, 1);
  });

  it('makes a message at the concurrency cap wait for the connection: no hold, delivered on attempt 1', async () => {
    // The first delivery stays in flight (its RCPT answered after 5 s): the cap of one is full.
    stall.setRecipientDelay('slow@stall.test', 5_000);
    const first = await send('slow@stall.test');
    await waitUntil('the first delivery in flight', () => stall.rcptAttempts('slow@stall.test') === 1);
    const second = await send('next@stall.test');
    const done = await until(second, 'the second delivered', (v) => v.status === 'delivered');
    assert.equal((await view(first)).status, 'delivered');
    assert.equal(notes(done, /waiting/).length, 0, 'waiting for a connection is no hold');
    assert.equal(deliveredAttempt(second), 1);
    assert.equal(stall.connections, 1, 'one connection, reused');
  });
});
