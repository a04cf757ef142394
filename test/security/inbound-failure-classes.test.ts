// The other ways an accepted inbound message could fail in the worker, each through the real
// public MX of the whole appliance: the messages are accepted while no worker runs, the world
// changes under them (raw bytes removed, the receiving domain deleted), then the worker
// starts. Each message ends as an inbound message (unparsed with its reason, or parsed with
// what is known) and an email.received webhook: none is dropped, no job ends dead.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { fail } from '../../src/jobs/fail';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import { compose, fetchBytes, sendRaw, setReceiving } from '../helpers/inbound-mail';
import { openApplianceDb } from '../helpers/open-database';
import { addVerifiedDomain } from '../helpers/verified-domain';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver } from '../helpers/webhook-receiver';

const FROM = 'sender@example.org';
const KEPT = 'support@inbox.kept.example.com';
const GONE = 'support@inbox.gone.example.com';

interface Inbound {
  id: string;
  domainId: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  unparsed: boolean;
  unparsedReason: string | null;
  mailFrom: string;
  rcptTo: string[];
  attachments: { id: string; filename: string | null }[];
}

/** A raw message with a Subject the test finds it by. */
function plain(subject: string, to: string, extraHeaders = '', body = 'hello\r\n'): Buffer {
  return Buffer.from(
    `From: ${FROM}\r\nTo: ${to}\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\n${extraHeaders}\r\n${body}`,
  );
}

describe('every inbound failure class ends as a stored message and an event', () => {
  let dns: FakeDns;
  let receiver: Receiver;
  let app: Appliance;
  let env: Record<string, string>;
  let token: string;
  let goneDomainId: string;
  const sent = new Map<string, Buffer>();

  before(async () => {
    dns = await startDnsServer();
    receiver = await startReceiver();
    env = { DNS_SERVERS: dns.address, WEBHOOK_ALLOW_PRIVATE: 'true' };
    // No worker yet: every message waits as a raw copy and a committed job.
    app = await startAppliance({ env, processes: ['api', 'mta'] });
    ({ token } = await app.api.register());
    const kept = (await addVerifiedDomain(app, dns, token, 'kept.example.com')).id;
    goneDomainId = (await addVerifiedDomain(app, dns, token, 'gone.example.com')).id;
    await setReceiving(app, token, kept, { receiveEnabled: true });
    await setReceiving(app, token, goneDomainId, { receiveEnabled: true });
    const hook = await app.api.post('/v1/webhooks', {
      token,
      body: { url: receiver.url, events: ['email.received'] },
    });
    assert.equal(hook.status, 201, hook.text);
    await new Promise((r) => setTimeout(r, 2_500)); // the MX's view of domains refreshes every 2 s

    const messages: [string, string, Buffer][] = [
      ['raw gone', KEPT, plain('raw gone', KEPT)],
      ['domain gone', GONE, plain('domain gone', GONE)],
      ['worker stopped', KEPT, plain('worker stopped', KEPT)],
      [
        // U+0000 in the subject (an encoded word), the text body (quoted-printable) and an
        // attachment's filename: PostgreSQL's text refuses it.
        'nul',
        KEPT,
        await compose({
          from: FROM,
          to: KEPT,
          subject: 'nul =?utf-8?Q?a=00b?=',
          text: 'before\u0000after',
          attachments: [{ filename: 'a\u0000b.txt', content: 'x' }],
        }),
      ],
      [
        // Charsets nothing decodes, UTF-7 (refused by the decoder), base64 that is not.
        'charsets',
        KEPT,
        plain(
          'charsets',
          KEPT,
          'Content-Type: multipart/mixed; boundary="cs"\r\n',
          '--cs\r\nContent-Type: text/plain; charset="x-no-such-charset"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n' +
            'caf\xe9 \xff\xfe\r\n' +
            '--cs\r\nContent-Type: text/html; charset=utf-7\r\n\r\n+ADw-b+AD4-hi+ADw-/b+AD4-\r\n' +
            '--cs\r\nContent-Type: application/octet-stream; name="x.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
            '@@@not base64!!!\r\n--cs--\r\n',
        ),
      ],
    ];
    for (const [key, to, raw] of messages) {
      const bytes = Buffer.from(raw.toString('latin1'), 'latin1');
      const info = await sendRaw(app, bytes, { from: FROM, to: [to] });
      assert.match(info.response, /^250 /, `${key}: accepted`);
      sent.set(key, bytes);
    }

    // Between the 250 and the processing: the first message's raw bytes disappear, the
    // second one's receiving domain is deleted, the third one's worker stalls on it.
    const db = openApplianceDb(app);
    try {
      const jobs = await db
        .selectFrom('jobs')
        .select(['id', 'payload'])
        .where('queue', '=', 'inbound-processing')
        .execute();
      assert.equal(jobs.length, messages.length);
      const refs = jobs.map((j) => ({
        id: j.id,
        ...(JSON.parse(j.payload) as { rawPath: string; size: number }),
      }));
      const jobOf = (key: string) => refs.find((r) => r.size === sent.get(key)!.length)!;
      const ref = jobOf('raw gone');
      if (ref.rawPath.startsWith('db:')) {
        await db.deleteFrom('raw_messages').where('id', '=', ref.rawPath.slice(3)).execute();
      } else {
        fs.rmSync(ref.rawPath);
      }
      // The stall watchdog fails the job without a retry, under the lease the stalled
      // worker held, and kills that worker (src/worker/stall-watchdog-thread.ts).
      const stalled = jobOf('worker stopped').id;
      await db
        .updateTable('jobs')
        .set({
          state: 'running',
          attempts: 1,
          lease_owner: 'stalled-worker',
          lease_expires_at: new Date(Date.now() + 60_000).toISOString(),
        })
        .where('id', '=', stalled)
        .execute();
      const failed = await fail(
        db,
        { id: stalled, attempts: 1, maxAttempts: 1 },
        'stalled-worker',
        new Error('worker stalled: event loop blocked for 10000 ms'),
        { retryable: false },
      );
      assert.equal(failed.outcome, 'dead');
    } finally {
      await db.destroy();
    }
    const del = await app.api.delete(`/v1/domains/${goneDomainId}`, { token });
    assert.equal(del.status, 200, del.text);

    await app.stop();
    app = await startAppliance({ dataDir: app.dataDir, env });
    await waitUntil(
      'every accepted message stored',
      async () =>
        (await app.api.get<{ data: unknown[] }>('/v1/inbound?limit=100', { token })).body.data.length ===
        messages.length,
      60_000,
    );
  });

  after(async () => {
    await app.stop();
    await receiver.close();
    await dns.close();
  });

  /** The stored message for a subject (an unparsed one by its envelope recipient and size). */
  async function find(key: string): Promise<Inbound> {
    const list = await app.api.get<{ data: { id: string; size: number }[] }>('/v1/inbound?limit=100', {
      token,
    });
    const summary = list.body.data.find((m) => m.size === sent.get(key)!.length);
    assert.ok(summary, `${key}: stored`);
    const full = await app.api.get<Inbound>(`/v1/inbound/${summary.id}`, { token });
    assert.equal(full.status, 200);
    return full.body;
  }

  async function webhookFor(inboundId: string): Promise<Record<string, unknown>> {
    const get = () => receiver.requests.find((r) => r.body.includes(inboundId));
    await waitUntil('the email.received webhook', () => get() !== undefined, 60_000);
    return JSON.parse(get()!.body) as Record<string, unknown>;
  }

  it('raw bytes gone before processing: stored unparsed with its envelope; raw answers 404 saying so', async () => {
    const m = await find('raw gone');
    assert.equal(m.unparsed, true);
    assert.equal(m.unparsedReason, 'the raw message is missing from the store');
    assert.equal(m.mailFrom, FROM);
    assert.deepEqual(m.rcptTo, [KEPT]);
    const raw = await app.api.get<{ error: { code: string; message: string } }>(`/v1/inbound/${m.id}/raw`, {
      token,
    });
    assert.equal(raw.status, 404);
    assert.equal(raw.body.error.code, 'EMAIL_NOT_FOUND');
    assert.match(raw.body.error.message, /raw bytes of this message were missing/);
    const hook = await webhookFor(m.id);
    assert.equal(hook.unparsed, true);
    assert.equal(hook.unparsedReason, 'the raw message is missing from the store');
  });

  it('the job failed by the stall watchdog (no retry): stored unparsed when the worker restarts', async () => {
    const m = await find('worker stopped');
    assert.equal(m.unparsed, true);
    assert.equal(m.unparsedReason, 'processing stopped before the message was stored');
    assert.deepEqual(m.rcptTo, [KEPT]);
    const raw = await fetchBytes(app, token, `/v1/inbound/${m.id}/raw`);
    assert.ok(raw.bytes.equals(sent.get('worker stopped')!), 'its raw bytes are kept');
    assert.equal((await webhookFor(m.id)).unparsed, true);
  });

  it('receiving domain deleted before processing: stored, parsed, without its domain', async () => {
    const m = await find('domain gone');
    assert.equal(m.unparsed, false);
    assert.equal(m.subject, 'domain gone');
    assert.equal(m.domainId, null);
    const raw = await fetchBytes(app, token, `/v1/inbound/${m.id}/raw`);
    assert.ok(raw.bytes.equals(sent.get('domain gone')!));
    assert.equal((await webhookFor(m.id)).subject, 'domain gone');
  });

  it('U+0000 in the subject, body and a filename: stored (as U+FFFD) on both backends', async () => {
    const m = await find('nul');
    assert.equal(m.unparsed, false);
    assert.equal(m.subject, 'nul a\ufffdb');
    assert.match(m.text ?? '', /before\ufffdafter/);
    assert.equal(m.attachments.length, 1);
    const raw = await fetchBytes(app, token, `/v1/inbound/${m.id}/raw`);
    assert.ok(raw.bytes.equals(sent.get('nul')!), 'the raw bytes keep what the client sent');
    assert.equal((await webhookFor(m.id)).unparsed, false);
  });

  it('unknown and refused charsets, broken base64: stored parsed, decoded as far as possible', async () => {
    const m = await find('charsets');
    assert.equal(m.unparsed, false);
    assert.equal(m.subject, 'charsets');
    assert.match(m.text ?? '', /caf/);
    assert.equal(m.attachments.length, 1);
    await webhookFor(m.id);
  });

  it('attachments the database refuses on every attempt: retried, then stored unparsed on the last', async () => {
    // A real database fault on the attachments' table (a trigger), not a stand-in: the
    // store transaction fails on every attempt; an unparsed row has no attachment to store.
    const db = openApplianceDb(app);
    const postgres = app.databaseUrl.startsWith('postgres');
    try {
      if (postgres) {
        await sql`create function refuse_attachment() returns trigger language plpgsql as $$
          begin raise exception 'attachment store refused'; end $$`.execute(db);
        await sql`create trigger refuse_attachment before insert on inbound_attachments
          for each row execute function refuse_attachment()`.execute(db);
      } else {
        await sql`create trigger refuse_attachment before insert on inbound_attachments
          begin select raise(abort, 'attachment store refused'); end`.execute(db);
      }
      const raw = await compose({
        from: FROM,
        to: KEPT,
        subject: 'attachment refused',
        text: 'see attached',
        attachments: [{ filename: 'report.pdf', content: 'pdf' }],
      });
      sent.set('attachment refused', raw);
      assert.match((await sendRaw(app, raw, { from: FROM, to: [KEPT] })).response, /^250 /);
      // Five attempts, 1 + 2 + 4 + 8 s of backoff (+25 % jitter) between them.
      await waitUntil(
        'the message stored after its last attempt',
        async () =>
          (
            await app.api.get<{ data: { size: number }[] }>('/v1/inbound?limit=100', { token })
          ).body.data.some((m) => m.size === raw.length),
        90_000,
      );
    } finally {
      await sql`drop trigger refuse_attachment${sql.raw(postgres ? ' on inbound_attachments' : '')}`.execute(
        db,
      );
      if (postgres) await sql`drop function refuse_attachment()`.execute(db);
      await db.destroy();
    }
    const m = await find('attachment refused');
    assert.equal(m.unparsed, true);
    assert.equal(m.unparsedReason, 'processing failed after 5 attempts');
    assert.deepEqual(m.rcptTo, [KEPT]);
    const got = await fetchBytes(app, token, `/v1/inbound/${m.id}/raw`);
    assert.ok(got.bytes.equals(sent.get('attachment refused')!), 'its raw bytes are kept');
    assert.equal((await webhookFor(m.id)).unparsed, true);
    const failures = app.lines.filter(
      (l) => l.includes('"job_failed"') && l.includes('attachment store refused'),
    );
    assert.equal(failures.length, 4, 'the first four attempts failed and were retried');
    assert.ok(
      app.lines.some((l) => l.includes('"inbound_processing_failed"')),
      'the error is logged',
    );
    assert.ok(
      !JSON.stringify(m).includes('attachment store refused'),
      'the database error is not shown to the account',
    );
  });

  it('no job ended dead', () => {
    assert.ok(!app.lines.some((l) => l.includes('"job_dead"')), 'no job_dead in the worker log');
  });
});
