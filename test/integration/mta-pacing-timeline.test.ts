// Issue 22 review, item 6: the "why is it still queued" answer of per-destination pacing, end to
// end over the whole appliance (api, worker, mta; no SMTP_RELAY, fake DNS, SMTP sinks on loopback
// through the test-only OUTBOUND_MX_PORT), for both senders (OUTBOUND_SENDER: Haraka's outbound,
// or the worker's own, issue 31 item 3). One provider answers 421 4.7.0 "rate limited": GET
// /v1/emails/{id} of a second message to it shows the waiting note while mail to another
// destination is delivered meanwhile; then the provider recovers and the held message is
// delivered. With one retry in MTA_RETRY_INTERVALS, the hold must not spend it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePorts } from '../helpers/free-port';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { waitUntil } from '../helpers/wait-until';

// Loopback addresses no other test uses for its MX sinks.
const SLOW_IP = '127.0.23.2';
const FAST_IP = '127.0.23.3';
const DOMAIN = 'pacing-timeline.example.com';
const WAITING =
  /^attempt \d+: waiting: destination slow-provider\.test is throttling us until \d\d:\d\d UTC$/;

interface EmailBody {
  readonly status: string;
  readonly recipients: readonly { readonly email: string; readonly status: string }[];
  readonly events: readonly { readonly type: string; readonly message: string | null }[];
  readonly delivery: { readonly state: string; readonly summary: string };
}

for (const sender of ['haraka', 'worker'] as const)
  describe(`pacing on the timeline, end to end (OUTBOUND_SENDER=${sender}, fake DNS, MX sinks)`, () => {
    let sending: SendingAppliance;
    let slow: SmtpSink;
    let fast: SmtpSink;

    before(async () => {
      const [mxPort] = (await freePorts(1)) as [number];
      slow = await startSmtpSink({ host: SLOW_IP, port: mxPort });
      fast = await startSmtpSink({ host: FAST_IP, port: mxPort });
      sending = await startSendingAppliance(DOMAIN, {
        OUTBOUND_SENDER: sender,
        SMTP_RELAY: '',
        OUTBOUND_MX_PORT: String(mxPort),
        // Loopback MX addresses: refused by the outbound guard unless opened.
        OUTBOUND_ALLOW_PRIVATE: 'true',
        // Long enough that the second message reaches the MTA while the back-off is on, however
        // slow the worker's hand-off (seen: a 3 s back-off ended first under load); short enough
        // for a test. One retry only, which a hold must not spend.
        MTA_BACKOFF_BASE_S: '20',
        MTA_BACKOFF_MAX_S: '20',
        MTA_RETRY_INTERVALS: '5',
      });
      const { dns } = sending;
      // Two recipient domains served by one provider, one by another.
      dns.set('slow-a.test', 'MX', [{ exchange: 'mx1.slow-provider.test', priority: 10 }]);
      dns.set('slow-b.test', 'MX', [{ exchange: 'mx2.slow-provider.test', priority: 10 }]);
      dns.set('mx1.slow-provider.test', 'A', [SLOW_IP]);
      dns.set('mx2.slow-provider.test', 'A', [SLOW_IP]);
      dns.set('fast.test', 'MX', [{ exchange: 'mx.fast-provider.test', priority: 10 }]);
      dns.set('mx.fast-provider.test', 'A', [FAST_IP]);
    });
    after(async () => {
      await sending.stop();
      await slow.close();
      await fast.close();
    });

    async function send(to: string): Promise<string> {
      const sent = await sending.app.api.post<{ id: string }>('/v1/emails', {
        token: sending.apiKey,
        body: { from: `news@${DOMAIN}`, to, subject: 'Pacing', text: 'Hello' },
      });
      assert.equal(sent.status, 202, sent.text);
      return sent.body.id;
    }

    async function email(id: string): Promise<EmailBody> {
      const res = await sending.app.api.get<EmailBody>(`/v1/emails/${id}`, { token: sending.apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body;
    }

    it('shows the waiting note while another destination flows, then delivers the held message', async () => {
      // The provider rate-limits each recipient's first attempt, then recovers.
      const rateLimited = (attempt: number) =>
        attempt === 1 ? { code: 421 as const, message: '4.7.0 rate limited' } : ('accept' as const);
      slow.setRecipientBehaviour('first@slow-a.test', rateLimited);
      slow.setRecipientBehaviour('second@slow-b.test', rateLimited);

      const first = await send('first@slow-a.test');
      await waitUntil(
        'the first message deferred by the 421',
        async () => (await email(first)).events.some((e) => e.type === 'deferred'),
        60_000,
      );
      const second = await send('second@slow-b.test');
      let held: EmailBody | undefined;
      await waitUntil(
        'the waiting note of the second message',
        async () => (held = await email(second)).events.some((e) => WAITING.test(e.message ?? '')),
        30_000,
      );
      assert.equal(slow.rcptAttempts('second@slow-b.test'), 0, 'held without a connection');
      assert.equal(held?.delivery.state, 'deferred');
      assert.match(
        held?.delivery.summary ?? '',
        /^slow-provider\.test, the recipient’s mail provider, asked us to slow down/,
      );

      // Another destination meanwhile: delivered while the second message is still held.
      const third = await send('third@fast.test');
      await waitUntil('the third message delivered', async () => (await email(third)).status === 'delivered');
      assert.notEqual((await email(second)).status, 'delivered');

      // The back-off ends: the held message meets the provider once more rate limited (its first
      // real attempt), is retried on its one retry, and is delivered; so is the first.
      await waitUntil(
        'the held message delivered',
        async () => (await email(second)).status === 'delivered',
        90_000,
      );
      await waitUntil(
        'the first message delivered',
        async () => (await email(first)).status === 'delivered',
        30_000,
      );
      const timeline = (await email(second)).events.map((e) => e.message ?? e.type);
      assert.equal(
        timeline.filter((m) => WAITING.test(m)).length,
        1,
        `one waiting note per hold period: ${JSON.stringify(timeline)}`,
      );
      assert.ok(
        timeline.some((m) => /^attempt 1: .*421.*rate limited/.test(m)),
        JSON.stringify(timeline),
      );
      assert.equal(slow.rcptAttempts('second@slow-b.test'), 2);
    });
  });
