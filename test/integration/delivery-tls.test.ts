// Issue 22 item 3: every delivery attempt records how its SMTP session was protected, and
// GET /v1/emails/{id} shows it on the timeline. Real path: API → worker → Haraka → an SMTP
// sink as SMTP_RELAY, once offering STARTTLS (opportunistic: its self-signed certificate is
// accepted) and once without it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Appliance } from '../helpers/appliance';
import { startAppliance } from '../helpers/appliance';
import type { FakeDns } from '../helpers/dns-server';
import { startDnsServer } from '../helpers/dns-server';
import type { SmtpSink } from '../helpers/smtp-sink';
import { startSmtpSink } from '../helpers/smtp-sink';
import { addVerifiedDomain } from '../helpers/verified-domain';

interface EmailView {
  status: string;
  recipients: { email: string; status: string }[];
  events: { type: string; recipient: string | null; tls: string | null }[];
}

const DOMAIN = 'shop.example.com';
const TERMINAL = new Set(['delivered', 'bounced', 'failed']);
/** Node's TLSSocket: getProtocol() then getCipher().name, e.g. `TLSv1.3 TLS_AES_256_GCM_SHA384`. */
const NEGOTIATED = /^TLSv1\.[23] [A-Z0-9_-]+$/;

async function sendingThrough(sink: SmtpSink): Promise<{ app: Appliance; dns: FakeDns; apiKey: string }> {
  const dns = await startDnsServer();
  const app = await startAppliance({
    env: { DNS_SERVERS: dns.address, SMTP_RELAY: sink.address, MTA_RETRY_INTERVALS: '5,5' },
  });
  const account = await app.api.registerWithKey();
  await addVerifiedDomain(app, dns, account.token, DOMAIN);
  return { app, dns, apiKey: account.apiKey };
}

async function sendAndSettle(app: Appliance, apiKey: string, to: string): Promise<EmailView> {
  const sent = await app.api.post<{ id: string }>('/v1/emails', {
    token: apiKey,
    body: { from: `orders@${DOMAIN}`, to, subject: 'Your order', text: 'Thanks' },
  });
  assert.equal(sent.status, 202, sent.text);
  const deadline = Date.now() + 40_000;
  for (;;) {
    const res = await app.api.get<EmailView>(`/v1/emails/${sent.body.id}`, { token: apiKey });
    assert.equal(res.status, 200, res.text);
    if (TERMINAL.has(res.body.status)) return res.body;
    if (Date.now() > deadline) assert.fail(`not settled: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function attempts(view: EmailView) {
  return view.events.filter((e) => TERMINAL.has(e.type) || e.type === 'deferred');
}

describe('TLS of each delivery attempt: a relay offering STARTTLS', () => {
  let sink: SmtpSink;
  let app: Appliance;
  let dns: FakeDns;
  let apiKey: string;

  before(async () => {
    sink = await startSmtpSink();
    ({ app, dns, apiKey } = await sendingThrough(sink));
  });
  after(async () => {
    await app.stop();
    await sink.close();
    await dns.close();
  });

  it('delivers over STARTTLS and records the version and cipher on the delivered entry', async () => {
    const view = await sendAndSettle(app, apiKey, 'buyer@dest.test');
    assert.equal(view.status, 'delivered');
    assert.equal(sink.messages.at(-1)?.secure, true);
    const [attempt] = attempts(view);
    assert.equal(attempt?.type, 'delivered');
    assert.match(attempt?.tls ?? '', NEGOTIATED);
    // Entries that are no delivery attempt name no TLS.
    assert.deepEqual(
      view.events.filter((e) => e.type === 'queued' || e.type === 'sent').map((e) => e.tls),
      [null, null],
    );
  });

  it('records the TLS of a session whose RCPT was refused (5xx bounce)', async () => {
    sink.setRecipientBehaviour('gone@dest.test', { code: 550, message: '5.1.1 no such user' });
    const view = await sendAndSettle(app, apiKey, 'gone@dest.test');
    assert.equal(view.status, 'bounced');
    const [attempt] = attempts(view);
    assert.equal(attempt?.type, 'bounced');
    assert.match(attempt?.tls ?? '', NEGOTIATED);
  });
});

describe('TLS of each delivery attempt: a relay without STARTTLS', () => {
  let sink: SmtpSink;
  let app: Appliance;
  let dns: FakeDns;
  let apiKey: string;

  before(async () => {
    sink = await startSmtpSink({ disabledCommands: ['STARTTLS'] });
    ({ app, dns, apiKey } = await sendingThrough(sink));
  });
  after(async () => {
    await app.stop();
    await sink.close();
    await dns.close();
  });

  it('still delivers (opportunistic) and records "plaintext"', async () => {
    const view = await sendAndSettle(app, apiKey, 'buyer@dest.test');
    assert.equal(view.status, 'delivered');
    assert.equal(sink.messages.at(-1)?.secure, false);
    const [attempt] = attempts(view);
    assert.equal(attempt?.type, 'delivered');
    assert.equal(attempt?.tls, 'plaintext');
  });
});
