// The events of a real send reach a webhook: POST /v1/emails → worker → Haraka → SMTP sink
// (one recipient refused) → delivery reports → outbox → webhook receiver. The appliance runs
// whole; the webhook queue is served by the real handlers in this process (test/helpers/webhook-worker.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { SmtpSink } from '../helpers/smtp-sink';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver, verifySignature } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { startWebhookWorker } from '../helpers/webhook-worker';

const DOMAIN = 'shop.example.com';

interface Payload {
  event: string;
  emailId: string;
  recipient: string;
  timestamp: string;
  reason?: string;
  statusCode?: number | null;
}

describe('webhooks for a real send, end to end', () => {
  let sending: SendingAppliance;
  let sink: SmtpSink;
  let app: Appliance;
  let worker: WebhookWorker;
  let receiver: Receiver;
  let apiKey: string;

  before(async () => {
    receiver = await startReceiver();
    sending = await startSendingAppliance(DOMAIN, {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_EMAILS_PER_HOUR: '1000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
    });
    ({ sink, app, apiKey } = sending);
    worker = await startWebhookWorker(app.env, { dispatchIntervalMs: 100 });
  });
  after(async () => {
    await worker.stop();
    await sending.stop();
    await receiver.close();
  });

  it('announces sent, delivered and bounced with valid signatures and the spec payload', async () => {
    const created = await app.api.post<{ secret: string }>('/v1/webhooks', {
      token: apiKey,
      body: {
        url: receiver.url,
        events: ['email.sent', 'email.delivered', 'email.bounced', 'email.failed', 'email.complained'],
      },
    });
    assert.equal(created.status, 201, created.text);
    sink.setRecipientBehaviour('gone@dest.test', { code: 550, message: '5.1.1 No such user here' });
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: { from: `orders@${DOMAIN}`, to: ['ok@dest.test', 'gone@dest.test'], subject: 'Hi', text: 'Hi' },
    });
    assert.equal(sent.status, 202, sent.text);
    const emailId = sent.body.id;

    const payloads = (): Payload[] => receiver.requests.map((q) => JSON.parse(q.body) as Payload);
    const has = (event: string, recipient: string): boolean =>
      payloads().some((p) => p.event === event && p.recipient === recipient);
    await waitUntil(
      'sent, delivered and bounced',
      () =>
        has('email.sent', 'ok@dest.test') &&
        has('email.delivered', 'ok@dest.test') &&
        has('email.bounced', 'gone@dest.test'),
      60_000,
    );

    for (const q of receiver.requests) {
      assert.ok(verifySignature(created.body.secret, q.headers['x-mail-signature'] as string, q.body));
      const p = JSON.parse(q.body) as Payload;
      assert.equal(q.headers['x-mail-event'], p.event);
      assert.equal(p.emailId, emailId);
      assert.ok(Date.parse(p.timestamp));
    }
    const bounced = payloads().find((p) => p.event === 'email.bounced');
    assert.match(bounced?.reason ?? '', /550|No such user/);
    assert.equal(bounced?.statusCode, 550);
    const delivered = payloads().find((p) => p.event === 'email.delivered');
    assert.deepEqual(Object.keys(delivered ?? {}), ['event', 'emailId', 'timestamp', 'recipient']);
  });
});
