// Simulator recipients end to end (issue 21 item 2): each address at
// simulator.mailroom.invalid ends in its status through the real paths — the status
// machine, the bounce and complaint intake (a VERP-addressed DSN or ARF report), the
// suppression list and webhooks — in a real appliance, and the SMTP sink never sees them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { startWebhookWorker } from '../helpers/webhook-worker';

const DOMAIN = 'sim.example.com';
const SIM = 'simulator.mailroom.invalid';

interface EmailBody {
  status: string;
  recipients: { email: string; status: string; smtpResponse: string | null }[];
  events: { type: string; recipient: string | null; message: string | null }[];
}

interface Payload {
  event: string;
  emailId: string;
  recipient: string;
  reason?: string;
  statusCode?: number | null;
  mode?: string;
}

describe('simulator recipients (live and test keys)', () => {
  let sending: SendingAppliance;
  let app: Appliance;
  let receiver: Receiver;
  let worker: WebhookWorker;
  let key: string;

  const send = (to: string | string[], token = key) =>
    app.api.post<{ id: string; error?: { code: string; message: string } }>('/v1/emails', {
      token,
      body: { from: `app@${DOMAIN}`, to, subject: 'Simulated', text: 'Hello' },
    });
  const view = async (id: string, token = key) =>
    (await app.api.get<EmailBody>(`/v1/emails/${id}`, { token })).body;
  const recipientStatus = async (id: string, address: string, token = key) =>
    (await view(id, token)).recipients.find((r) => r.email === address)?.status;
  const waitRecipient = async (id: string, address: string, status: string, token = key) => {
    await waitUntil(
      `${address} ${status}`,
      async () => (await recipientStatus(id, address, token)) === status,
      30_000,
    );
  };
  const suppression = async (email: string) => {
    const res = await app.api.get<{ data: { email: string; type: string }[] }>(
      `/v1/suppressions?email=${encodeURIComponent(email)}`,
      { token: key },
    );
    return res.body.data.find((s) => s.email === email);
  };
  const payloads = (): Payload[] => receiver.requests.map((q) => JSON.parse(q.body) as Payload);
  const hook = (emailId: string, event: string, recipient: string) =>
    payloads().find((p) => p.emailId === emailId && p.event === event && p.recipient === recipient);

  before(async () => {
    receiver = await startReceiver();
    sending = await startSendingAppliance(DOMAIN, {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '200',
      RATE_LIMIT_EMAILS_PER_HOUR: '200',
    });
    app = sending.app;
    key = sending.apiKey;
    worker = await startWebhookWorker(app.env, { dispatchIntervalMs: 100 });
    const created = await app.api.post('/v1/webhooks', {
      token: key,
      body: {
        url: receiver.url,
        events: ['email.sent', 'email.delivered', 'email.bounced', 'email.complained', 'email.failed'],
      },
    });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await worker.stop();
    await sending.stop();
    await receiver.close();
  });

  it('delivered@, bounced@, soft-bounced@, deferred@ and complained@ end as their names say, with events, suppressions and webhooks', async () => {
    const addresses = {
      delivered: `delivered@${SIM}`,
      bounced: `bounced@${SIM}`,
      soft: `soft-bounced@${SIM}`,
      deferred: `deferred@${SIM}`,
      complained: `complained@${SIM}`,
    };
    const ids: Record<keyof typeof addresses, string> = {} as Record<keyof typeof addresses, string>;
    for (const [name, to] of Object.entries(addresses) as [keyof typeof addresses, string][]) {
      const res = await send(to);
      assert.equal(res.status, 202, res.text);
      ids[name] = res.body.id;
    }

    await waitRecipient(ids.delivered, addresses.delivered, 'delivered');
    const delivered = await view(ids.delivered);
    assert.deepEqual(
      delivered.events.map((e) => e.type),
      ['queued', 'processing', 'sent', 'delivered'],
    );

    await waitRecipient(ids.bounced, addresses.bounced, 'bounced');
    const bounced = await view(ids.bounced);
    assert.equal(bounced.status, 'bounced');
    assert.match(bounced.recipients[0]?.smtpResponse ?? '', /550 5\.1\.1/);
    assert.equal((await suppression(addresses.bounced))?.type, 'hard_bounce');

    await waitRecipient(ids.soft, addresses.soft, 'bounced');
    assert.match((await view(ids.soft)).recipients[0]?.smtpResponse ?? '', /5\.2\.2/);
    assert.equal(await suppression(addresses.soft), undefined, 'a soft bounce never suppresses');

    await waitRecipient(ids.complained, addresses.complained, 'complained');
    const complained = await view(ids.complained);
    assert.deepEqual(
      complained.events.map((e) => e.type),
      ['queued', 'processing', 'sent', 'delivered', 'complained'],
    );
    assert.equal((await suppression(addresses.complained))?.type, 'complaint');

    // Deferred first, then delivered once the simulated retry comes (5 s).
    await waitUntil('deferred', async () =>
      (await view(ids.deferred)).events.some((e) => e.type === 'deferred'),
    );
    await waitRecipient(ids.deferred, addresses.deferred, 'delivered');
    assert.deepEqual(
      (await view(ids.deferred)).events.map((e) => e.type),
      ['queued', 'processing', 'sent', 'deferred', 'delivered'],
    );

    await waitUntil(
      'the webhooks',
      () =>
        hook(ids.delivered, 'email.delivered', addresses.delivered) !== undefined &&
        hook(ids.bounced, 'email.bounced', addresses.bounced) !== undefined &&
        hook(ids.soft, 'email.bounced', addresses.soft) !== undefined &&
        hook(ids.complained, 'email.complained', addresses.complained) !== undefined &&
        hook(ids.deferred, 'email.delivered', addresses.deferred) !== undefined,
      30_000,
    );
    assert.equal(hook(ids.bounced, 'email.bounced', addresses.bounced)?.statusCode, 550);
    assert.match(hook(ids.bounced, 'email.bounced', addresses.bounced)?.reason ?? '', /5\.1\.1/);

    // No connection for any of them: the sink saw no RCPT at all.
    for (const address of Object.values(addresses)) assert.equal(sending.sink.rcptAttempts(address), 0);
    assert.equal(sending.sink.messages.length, 0);
  });

  it('suppressed@ is refused like a suppressed address; an unknown local part is refused', async () => {
    const suppressed = await send(`suppressed@${SIM}`);
    assert.equal(suppressed.status, 403, suppressed.text);
    assert.equal(suppressed.body.error?.code, 'SUPPRESSED_RECIPIENT');
    const unknown = await send(`nobody@${SIM}`);
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal(unknown.body.error?.code, 'INVALID_RECIPIENT');
    assert.match(unknown.body.error?.message ?? '', /delivered@simulator\.mailroom\.invalid/);
  });

  it('the bounced address is suppressed afterwards; a +label gives a fresh address', async () => {
    const again = await send(`bounced@${SIM}`);
    assert.equal(again.status, 403);
    assert.equal(again.body.error?.code, 'SUPPRESSED_RECIPIENT');
    const labelled = await send(`bounced+second@${SIM}`);
    assert.equal(labelled.status, 202, labelled.text);
    await waitRecipient(labelled.body.id, `bounced+second@${SIM}`, 'bounced');
  });

  it('mixed recipients: the simulator takes its own, the MTA gets only the real one', async () => {
    const res = await send([`delivered+mixed@${SIM}`, 'person@dest.test']);
    assert.equal(res.status, 202, res.text);
    await waitRecipient(res.body.id, `delivered+mixed@${SIM}`, 'delivered');
    await waitRecipient(res.body.id, 'person@dest.test', 'delivered');
    const [message] = await sending.sink.waitForMessages(1);
    assert.deepEqual(message?.rcptTo, ['person@dest.test']);
    assert.equal(sending.sink.rcptAttempts(`delivered+mixed@${SIM}`), 0);
  });

  it('with a test key the simulator works the same and its webhooks say test', async () => {
    const created = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: sending.token,
      body: { name: 'trial', mode: 'test' },
    });
    const testKey = created.body.token;
    const res = await send(`bounced+trial@${SIM}`, testKey);
    assert.equal(res.status, 202, res.text);
    await waitRecipient(res.body.id, `bounced+trial@${SIM}`, 'bounced', testKey);
    assert.equal(await suppression(`bounced+trial@${SIM}`), undefined, 'test mail never suppresses');
    await waitUntil(
      'the test webhook',
      () => hook(res.body.id, 'email.bounced', `bounced+trial@${SIM}`) !== undefined,
    );
    assert.equal(hook(res.body.id, 'email.bounced', `bounced+trial@${SIM}`)?.mode, 'test');
  });

  it('with a test key, from a domain not verified yet, the report to its return path still finds the message', async () => {
    const added = await app.api.post('/v1/domains', {
      token: sending.token,
      body: { domain: 'trial.example.org' },
    });
    assert.equal(added.status, 201, added.text);
    const created = await app.api.post<{ token: string }>('/v1/api-keys', {
      token: sending.token,
      body: { name: 'unverified trial', mode: 'test' },
    });
    const testKey = created.body.token;
    const res = await app.api.post<{ id: string }>('/v1/emails', {
      token: testKey,
      body: {
        from: 'app@trial.example.org',
        to: `bounced+unverified@${SIM}`,
        subject: 'Simulated',
        text: 'Hi',
      },
    });
    assert.equal(res.status, 202, res.text);
    // The simulator's DSN goes to bounce+<email_id>@bounce.trial.example.org, as a real one would.
    await waitRecipient(res.body.id, `bounced+unverified@${SIM}`, 'bounced', testKey);
  });
});
