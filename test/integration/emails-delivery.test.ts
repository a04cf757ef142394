// The whole outbound path for real, for both senders (OUTBOUND_SENDER): POST /v1/emails →
// worker (email-send) → Haraka's injection listener → DKIM signing → SMTP_RELAY (an SMTP sink)
// → Haraka's delivery hooks → worker (mta-outcome) → GET /v1/emails/{id}; or, with the worker's
// own sender (issue 31), email-send → DKIM signing → the sink → the outcome in the same commit,
// deferred recipients retried as jobs. The same assertions hold for both. Fake DNS for
// verification and DKIM keys.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import type { Appliance } from '../helpers/appliance';
import { verpAddress } from '../../src/mail/verp-address';
import { probeSmtp } from '../../src/mta/probe';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { openApplianceDb } from '../helpers/open-database';
import { waitUntil } from '../helpers/wait-until';
import type { FakeDns } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';

interface EmailView {
  id: string;
  status: string;
  smtpResponse: string | null;
  attempts: number;
  sentAt: string | null;
  deliveredAt: string | null;
  recipients: { email: string; type: string; status: string; smtpResponse: string | null }[];
  events: { type: string; message: string | null; createdAt: string }[];
}

const DOMAIN = 'shop.example.com';
const TERMINAL = new Set(['delivered', 'bounced', 'failed', 'complained', 'cancelled']);

function fakeDnsResolver(server: FakeDns): DNSResolver {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>;
}

for (const sender of ['haraka', 'worker'] as const)
  describe(`outbound end to end (OUTBOUND_SENDER=${sender}): API → worker → sink → outcomes`, () => {
    let sending: SendingAppliance;
    let dnsServer: FakeDns;
    let sink: SmtpSink;
    let app: Appliance;
    let apiKey: string;

    before(async () => {
      sending = await startSendingAppliance(DOMAIN, {
        OUTBOUND_SENDER: sender,
        MTA_RETRY_INTERVALS: '5,5',
        RATE_LIMIT_EMAILS_PER_HOUR: '1000',
        NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
      });
      ({ dns: dnsServer, sink, app, apiKey } = sending);
    });
    after(async () => {
      await sending.stop();
    });

    async function send(body: Record<string, unknown>): Promise<string> {
      const res = await app.api.post<{ id: string; status: string }>('/v1/emails', {
        token: apiKey,
        body: { from: `Shop <orders@${DOMAIN}>`, subject: 'Your order', text: 'Thanks', ...body },
      });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.status, 'queued');
      return res.body.id;
    }

    async function get(id: string): Promise<EmailView> {
      const res = await app.api.get<EmailView>(`/v1/emails/${id}`, { token: apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body;
    }

    /** Polls until the message and every recipient are terminal. */
    async function settled(id: string, timeoutMs = 40_000): Promise<EmailView> {
      const deadline = Date.now() + timeoutMs;
      let view = await get(id);
      while (!(TERMINAL.has(view.status) && view.recipients.every((r) => TERMINAL.has(r.status)))) {
        if (Date.now() > deadline) {
          assert.fail(`${id} not settled: ${JSON.stringify(view)}\n${app.lines.slice(-20).join('\n')}`);
        }
        await new Promise((r) => setTimeout(r, 200));
        view = await get(id);
      }
      return view;
    }

    it('walks queued → processing → sent → delivered; VERP sender, DKIM verifies, no Bcc', async () => {
      const id = await send({
        to: 'buyer@dest.test',
        bcc: 'audit@dest.test',
        html: '<p>Thanks <img src="cid:logo"></p>',
        metadata: { internal: 'never-in-the-message' },
        attachments: [
          { filename: 'logo.png', content: Buffer.from('89504e47', 'hex').toString('base64'), cid: 'logo' },
          { filename: 'receipt.txt', content: Buffer.from('total 42').toString('base64') },
        ],
      });
      const view = await settled(id);
      assert.equal(view.status, 'delivered');
      assert.deepEqual(
        view.events.map((e) => e.type).filter((t) => t !== 'delivered'),
        ['queued', 'processing', 'sent'],
      );
      assert.deepEqual(
        view.events.filter((e) => e.type === 'delivered').length,
        2,
        'one delivered event per recipient',
      );
      assert.equal(view.events[1]?.message, 'attempt 1');
      assert.match(view.events[2]?.message ?? '', /^250 /);
      assert.equal(view.attempts, 1);
      assert.ok(view.sentAt && view.deliveredAt);
      assert.deepEqual(view.recipients.map((r) => r.status).sort(), ['delivered', 'delivered']);

      // Haraka may deliver the recipients of one message in separate transactions.
      const copies = sink.messages.filter((m) => m.mailFrom === verpAddress(id, DOMAIN));
      assert.deepEqual(copies.flatMap((m) => m.rcptTo).sort(), ['audit@dest.test', 'buyer@dest.test']);
      const message = copies[0];
      assert.ok(message, 'the sink got the message with the VERP envelope sender');
      const raw = message.raw.toString('latin1');
      assert.doesNotMatch(raw, /^bcc:/im);
      // The MTA stamps a Received field on what it relays; the worker's sender hands over the
      // message as built and signed, so the field tells which path carried it.
      assert.equal(/^Received:/im.test(raw), sender === 'haraka', 'carried by the expected sender');
      assert.ok(!raw.includes('never-in-the-message'));
      const parsed = await simpleParser(message.raw);
      assert.equal(parsed.messageId?.endsWith(`@${DOMAIN}>`), true);
      assert.equal(parsed.attachments.find((a) => a.cid === 'logo')?.contentDisposition, 'inline');
      assert.equal(
        parsed.attachments.find((a) => a.filename === 'receipt.txt')?.contentDisposition,
        'attachment',
      );
      const auth = await authenticate(message.raw, {
        ip: '127.0.0.1',
        helo: 'mx.mailroom.test',
        sender: message.mailFrom,
        resolver: fakeDnsResolver(dnsServer),
      });
      assert.equal(auth.dkim.results[0]?.status.result, 'pass', JSON.stringify(auth.dkim.results[0]?.status));
    });

    it('one recipient refused among four: the message is bounced, the others delivered', async () => {
      sink.setRecipientBehaviour('gone@dest.test', { code: 550, message: '5.1.1 No such user here' });
      const id = await send({
        to: ['one@dest.test', 'two@dest.test', 'gone@dest.test'],
        cc: 'three@dest.test',
      });
      const view = await settled(id);
      assert.equal(view.status, 'bounced');
      assert.deepEqual(Object.fromEntries(view.recipients.map((r) => [r.email, r.status])), {
        'one@dest.test': 'delivered',
        'two@dest.test': 'delivered',
        'gone@dest.test': 'bounced',
        'three@dest.test': 'delivered',
      });
      assert.match(view.recipients.find((r) => r.email === 'gone@dest.test')?.smtpResponse ?? '', /550/);
      assert.match(view.smtpResponse ?? '', /550/);

      // A refusal that says the address does not exist is a hard bounce: the address is suppressed.
      const sups = await app.api.get<{ data: { email: string; type: string; sourceEmailId: string }[] }>(
        '/v1/suppressions?email=gone@dest.test',
        { token: apiKey },
      );
      assert.deepEqual(
        sups.body.data.map((s) => [s.email, s.type, s.sourceEmailId]),
        [['gone@dest.test', 'hard_bounce', id]],
      );
      const again = await app.api.post<{ error: { code: string } }>('/v1/emails', {
        token: apiKey,
        body: { from: `orders@${DOMAIN}`, to: 'gone@dest.test', subject: 's', text: 't' },
      });
      assert.equal(again.body.error.code, 'SUPPRESSED_RECIPIENT');
    });

    it('a refusal that is about us, not the address, bounces without suppressing', async () => {
      sink.setRecipientBehaviour('picky@dest.test', { code: 554, message: '5.7.1 Message rejected as spam' });
      const id = await send({ to: 'picky@dest.test' });
      assert.equal((await settled(id)).status, 'bounced');
      const sups = await app.api.get<{ data: unknown[] }>('/v1/suppressions?email=picky@dest.test', {
        token: apiKey,
      });
      assert.deepEqual(sups.body.data, []);
    });

    it('adds the account footer at build time; {{logo_url}} without a logo leaves no broken image', async () => {
      const footer = await app.api.request('PUT', '/v1/branding/footer', {
        token: apiKey,
        body: {
          html: '<p class="ft"><img src="{{logo_url}}" alt="">Shop Ltd, 1 Main St</p>',
          text: 'Shop Ltd, 1 Main St',
        },
      });
      assert.equal(footer.status, 200, footer.text);
      const id = await send({ to: 'footer@dest.test', html: '<html><body><p>Order 7</p></body></html>' });
      assert.equal((await settled(id)).status, 'delivered');
      const message = sink.messages.find((m) => m.mailFrom === verpAddress(id, DOMAIN));
      assert.ok(message);
      const parsed = await simpleParser(message.raw);
      assert.match(parsed.html || '', /<p>Order 7<\/p><p class="ft">Shop Ltd, 1 Main St<\/p><\/body>/);
      assert.ok(!(parsed.html || '').includes('{{logo_url}}'));
      assert.ok(!(parsed.html || '').includes('<img'));
      assert.match(parsed.text ?? '', /Thanks\n\nShop Ltd, 1 Main St/);
      await app.api.request('PUT', '/v1/branding/footer', {
        token: apiKey,
        body: { html: null, text: null },
      });
    });

    it('deferred twice then accepted ends delivered; always deferred ends failed', async () => {
      sink.setRecipientBehaviour('slow@dest.test', (n) =>
        n <= 2 ? { code: 451, message: '4.7.1 Greylisted, try again' } : 'accept',
      );
      sink.setRecipientBehaviour('never@dest.test', { code: 451, message: '4.3.0 Mailbox busy' });
      const slow = await send({ to: 'slow@dest.test' });
      const never = await send({ to: 'never@dest.test' });
      const [a, b] = await Promise.all([settled(slow, 60_000), settled(never, 60_000)]);

      assert.equal(a.status, 'delivered');
      assert.deepEqual(
        a.events.map((e) => e.type),
        ['queued', 'processing', 'sent', 'deferred', 'deferred', 'delivered'],
      );
      assert.match(a.events[3]?.message ?? '', /^attempt 1: 451/);

      assert.equal(b.status, 'failed');
      assert.equal(b.recipients[0]?.status, 'failed');
      assert.equal(b.events.at(-1)?.type, 'failed');
      assert.ok(b.events.filter((e) => e.type === 'deferred').length >= 2);
    });

    it(
      "leaves Haraka's outbound unused: no queue file written, no injection listener",
      { skip: sender === 'haraka' ? 'Haraka delivers' : false },
      async () => {
        const id = await send({ to: 'unqueued@dest.test' });
        assert.equal((await settled(id)).status, 'delivered');
        const queueFiles = (dir: string): string[] =>
          fs.existsSync(path.join(app.dataDir, dir)) ? fs.readdirSync(path.join(app.dataDir, dir)) : [];
        // Every message of this suite went out: none of them left a file in either queue directory.
        assert.deepEqual([...queueFiles('mta-queue'), ...queueFiles('mta/queue-unused')], []);
        const injection = await probeSmtp('127.0.0.1', app.ports.inject, 2_000);
        assert.equal(injection.ok, false, 'nothing listens on MTA_INJECT_PORT');
        assert.ok((await probeSmtp('127.0.0.1', app.ports.smtp, 2_000)).ok, 'the MX still answers');
      },
    );

    it(
      'a deferred recipient of an account suspended meanwhile ends failed at its retry, not sent again',
      { skip: sender === 'haraka' ? "the MTA's own queue holds Haraka's deferrals" : false },
      async () => {
        sink.setRecipientBehaviour('later@dest.test', { code: 451, message: '4.7.1 Try again later' });
        const id = await send({ to: 'later@dest.test' });
        const db = openApplianceDb(app);
        try {
          const status = async () =>
            (await db.selectFrom('emails').select('status').where('id', '=', id).executeTakeFirstOrThrow())
              .status;
          await waitUntil('the first deferral', async () => (await status()) === 'deferred', 20_000);
          // Its retry is a job any node claims: no node holds it, so no hand-back sweep resends it.
          const held = await db
            .selectFrom('emails')
            .select('mta_node')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          assert.equal(held.mta_node, null);
          const account = await app.api.get<{ id: string }>('/v1/auth/me', { token: sending.token });
          assert.equal(account.status, 200, account.text);
          const suspended = await app.api.post(`/internal/accounts/${account.body.id}/suspend`, {
            headers: { 'x-internal-token': app.internalToken },
            body: { reason: 'test' },
          });
          assert.equal(suspended.status, 200, suspended.text);
          await waitUntil('the retry to end it', async () => (await status()) === 'failed', 30_000);
          assert.equal(sink.rcptAttempts('later@dest.test'), 1, 'not offered again after the suspension');
          const last = await db
            .selectFrom('email_events')
            .select(['type', 'message'])
            .where('email_id', '=', id)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow();
          assert.deepEqual([last.type, last.message], ['failed', 'account suspended']);
        } finally {
          await db.destroy();
        }
      },
    );
  });
