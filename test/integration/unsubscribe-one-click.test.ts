// One-click unsubscribe served by Mailroom (issue 22 item 5, RFC 8058), over a real send:
// PATCH the domain's unsubscribeLink → POST /v1/emails → worker → Haraka (DKIM) → SMTP sink
// carries the pair, signed → POST the URL as a mailbox provider would → suppression of type
// `unsubscribe` + `email.unsubscribed` webhook → the next send to the address is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import type { Appliance } from '../helpers/appliance';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { SmtpSink } from '../helpers/smtp-sink';
import { waitUntil } from '../helpers/wait-until';
import type { Receiver } from '../helpers/webhook-receiver';
import { startReceiver } from '../helpers/webhook-receiver';
import type { WebhookWorker } from '../helpers/webhook-worker';
import { startWebhookWorker } from '../helpers/webhook-worker';

const DOMAIN = 'news.example.com';

/** The unfolded value of the first header `name` in the message's header block. */
function header(raw: Buffer, name: string): string | undefined {
  const head = raw.toString('latin1').split('\r\n\r\n')[0] ?? '';
  const unfolded = head.replace(/\r\n[ \t]+/g, ' ');
  const prefix = `${name.toLowerCase()}:`;
  const line = unfolded.split('\r\n').find((l) => l.toLowerCase().startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

describe('one-click unsubscribe served by Mailroom (RFC 8058)', () => {
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
      SUBMISSION_ALLOW_PLAINTEXT: 'true',
    });
    ({ sink, app, apiKey } = sending);
    worker = await startWebhookWorker(app.env, { dispatchIntervalMs: 100 });
  });
  after(async () => {
    await worker.stop();
    await sending.stop();
    await receiver.close();
  });

  async function sendAndReceive(to: string | string[], headers?: Record<string, string>): Promise<Buffer> {
    const before = sink.messages.length;
    const sent = await app.api.post<{ id: string }>('/v1/emails', {
      token: apiKey,
      body: { from: `news@${DOMAIN}`, to, subject: 'Weekly', text: 'Hello', ...(headers ? { headers } : {}) },
    });
    assert.equal(sent.status, 202, sent.text);
    await waitUntil('the message at the sink', () => sink.messages.length > before, 60_000);
    return (sink.messages[before] as { raw: Buffer }).raw;
  }

  it('adds a signed one-click pair, and its POST suppresses the recipient once and fires email.unsubscribed', async () => {
    const hook = await app.api.post('/v1/webhooks', {
      token: apiKey,
      body: { url: receiver.url, events: ['email.unsubscribed'] },
    });
    assert.equal(hook.status, 201, hook.text);

    // Off by default: no header.
    const plain = await sendAndReceive('reader0@dest.test');
    assert.equal(header(plain, 'List-Unsubscribe'), undefined);

    const patched = await app.api.patch<{ unsubscribeLink: boolean }>(`/v1/domains/${sending.domain.id}`, {
      token: apiKey,
      body: { unsubscribeLink: true },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.unsubscribeLink, true);

    const raw = await sendAndReceive('Reader1@dest.test');
    const value = header(raw, 'List-Unsubscribe') ?? '';
    const m = /^<(https?:\/\/[^>]+\/public\/unsubscribe\/([^>/]+))>$/.exec(value);
    assert.ok(m, `List-Unsubscribe: ${value}`);
    assert.equal(header(raw, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    // RFC 8058 §4: both headers are covered by the DKIM signature.
    const signed = (header(raw, 'DKIM-Signature') ?? '').replace(/\s+/g, '');
    const h = (/(?:^|;)h=([^;]+)/.exec(signed)?.[1] ?? '').toLowerCase().split(':');
    assert.ok(h.includes('list-unsubscribe') && h.includes('list-unsubscribe-post'), signed);

    const path = `/public/unsubscribe/${m[2]}`;
    // GET shows a button and changes nothing (scanners follow links).
    const page = await fetch(`${app.baseUrl}${path}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /reader1@dest\.test[\s\S]*<form method="post">/);
    const none = await app.api.get<{ data: unknown[] }>('/v1/suppressions', { token: apiKey });
    assert.equal(none.body.data.length, 0, none.text);

    // A POST without the RFC 8058 body is refused and changes nothing.
    const bare = await fetch(`${app.baseUrl}${path}`, { method: 'POST' });
    assert.equal(bare.status, 422);
    // A token with a tag that is not ours names nothing.
    const forged = `${(m[2] ?? '').slice(0, -4)}aaaa`;
    const wrong = await fetch(`${app.baseUrl}/public/unsubscribe/${forged}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(wrong.status, 404);
    assert.equal(
      ((await wrong.json()) as { error: { code: string } }).error.code,
      'UNSUBSCRIBE_LINK_NOT_FOUND',
    );

    // As a mailbox provider posts it (RFC 8058 §3.2), twice.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${app.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(res.status, 200, await res.text());
    }
    const list = await app.api.get<{ data: { email: string; type: string }[] }>('/v1/suppressions', {
      token: apiKey,
    });
    assert.deepEqual(
      list.body.data.map((s) => [s.email, s.type]),
      [['reader1@dest.test', 'unsubscribe']],
    );

    await waitUntil('email.unsubscribed', () => receiver.requests.length > 0, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.requests.length, 1, 'one event for two POSTs');
    const payload = JSON.parse(receiver.requests[0]?.body ?? '{}') as Record<string, unknown>;
    assert.equal(payload.event, 'email.unsubscribed');
    assert.equal(payload.recipient, 'reader1@dest.test');

    const again = await app.api.post<{ error: { code: string } }>('/v1/emails', {
      token: apiKey,
      body: { from: `news@${DOMAIN}`, to: 'reader1@dest.test', subject: 'Weekly', text: 'Hello' },
    });
    assert.equal(again.status, 403, again.text);
    assert.equal(again.body.error.code, 'SUPPRESSED_RECIPIENT');
  });

  it('leaves mail that sets its own List-Unsubscribe, and mail to several recipients, alone', async () => {
    const own = await sendAndReceive('reader2@dest.test', {
      'List-Unsubscribe': '<https://lists.example.org/u/42>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    assert.equal(header(own, 'List-Unsubscribe'), '<https://lists.example.org/u/42>');
    const many = await sendAndReceive(['reader3@dest.test', 'reader4@dest.test']);
    assert.equal(header(many, 'List-Unsubscribe'), undefined);
  });

  it('adds the pair to SMTP submissions too, unless they carry their own', async () => {
    const smtp = nodemailer.createTransport({
      host: '127.0.0.1',
      port: app.ports.submission,
      secure: false,
      ignoreTLS: true,
      auth: { user: 'apikey', pass: apiKey },
    });
    // Picked by recipient, not by arrival order: a message of an earlier test may reach the
    // sink late on a loaded machine (CI once took it for this submission).
    const arrived = async (to: string): Promise<Buffer> => {
      let found: Buffer | undefined;
      await waitUntil(
        `the submission to ${to} at the sink`,
        () => {
          found = sink.messages.find((m) => m.rcptTo.includes(to))?.raw;
          return found !== undefined;
        },
        60_000,
      );
      return found!;
    };
    await smtp.sendMail({
      from: `news@${DOMAIN}`,
      to: 'reader5@dest.test',
      subject: 'Weekly',
      text: 'Hello',
    });
    const added = await arrived('reader5@dest.test');
    await smtp.sendMail({
      from: `news@${DOMAIN}`,
      to: 'reader6@dest.test',
      subject: 'Weekly',
      text: 'Hello',
      headers: { 'List-Unsubscribe': '<mailto:unsub@news.example.com>' },
    });
    const own = await arrived('reader6@dest.test');
    assert.match(header(added, 'List-Unsubscribe') ?? '', /^<https?:\/\/.+\/public\/unsubscribe\/[^>]+>$/);
    assert.equal(header(added, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    assert.equal(header(own, 'List-Unsubscribe'), '<mailto:unsub@news.example.com>');
    assert.equal(header(own, 'List-Unsubscribe-Post'), undefined);
  });
});
