// Issue 20: the real, unmodified Resend Node SDK (resend@6.38.0, pinned) pointed at the appliance
// by its base URL sends, reads, lists and cancels mail, and reads every failure as Resend's
// `{statusCode, name, message}`. The delivered message is checked at the SMTP sink (headers,
// attachments, DKIM against the fake DNS).
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { after, before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import type { CreateEmailOptions } from 'resend';
import { Resend } from 'resend';
import type { FakeDns } from '../helpers/dns-server';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { ShapeCheck } from '../helpers/openapi-shape';
import { openApiShapes } from '../helpers/openapi-shape';
import { addVerifiedDomain } from '../helpers/verified-domain';

const DOMAIN = 'shop.example.com';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function fakeDnsResolver(server: FakeDns): DNSResolver {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>;
}

describe('the Resend Node SDK against the compatible API: emails', () => {
  let sending: SendingAppliance;
  let resend: Resend;
  /** Every answer is also checked against the schema /openapi.json documents for it. */
  let shape: ShapeCheck;

  before(async () => {
    sending = await startSendingAppliance(DOMAIN, {
      RATE_LIMIT_EMAILS_PER_HOUR: '1000',
      NEW_ACCOUNT_EMAILS_PER_HOUR: '1000',
    });
    // The SDK's documented switch: its constructor's baseUrl (or RESEND_BASE_URL) is the only change.
    resend = new Resend(sending.apiKey, { baseUrl: sending.app.baseUrl });
    shape = await openApiShapes(sending.app.baseUrl);
  });
  after(async () => {
    await sending.stop();
  });

  async function lastEventOf(id: string, wanted: string): Promise<void> {
    const deadline = Date.now() + 40_000;
    for (;;) {
      const { data, error } = await resend.emails.get(id);
      assert.equal(error, null);
      if (data?.last_event === wanted) return;
      if (Date.now() > deadline) assert.fail(`${id}: last_event ${data?.last_event}, wanted ${wanted}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('emails.send with every option: queued, delivered, DKIM-signed, as given', async () => {
    const options: CreateEmailOptions = {
      from: `Shop <orders@${DOMAIN}>`,
      to: ['buyer@dest.test', 'Second Buyer <second@dest.test>'],
      cc: 'copy@dest.test',
      bcc: ['audit@dest.test'],
      replyTo: ['help@shop.example.com', 'sales@shop.example.com'],
      subject: 'Your order #42',
      html: '<p>Thanks <img src="cid:logo"></p>',
      text: 'Thanks',
      headers: {
        'X-Entity-Ref-ID': 'order-42',
        'List-Unsubscribe': '<https://shop.example.com/unsubscribe/42>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      tags: [
        { name: 'category', value: 'receipt' },
        { name: 'order', value: '42' },
      ],
      attachments: [
        { filename: 'logo.png', content: PNG, contentType: 'image/png', contentId: 'logo' },
        { filename: 'receipt.txt', content: Buffer.from('total 42').toString('base64') },
      ],
    };
    const { data, error, headers } = await resend.emails.send(options, {
      idempotencyKey: 'order-42-receipt',
    });
    assert.equal(error, null, JSON.stringify(error));
    assert.match(data?.id ?? '', /^email_/);
    const id = data.id;
    shape('ResendId', data);
    assert.ok(headers?.['x-ratelimit-remaining'], 'the quota headers of POST /v1/emails');

    // The same key and body: the original answer, nothing new queued (the /v1 idempotency store).
    const again = await resend.emails.send(options, { idempotencyKey: 'order-42-receipt' });
    assert.deepEqual(again.data, { id });
    assert.equal(again.headers?.['idempotent-replayed'], 'true');

    await lastEventOf(id, 'delivered');
    const { data: email } = await resend.emails.get(id);
    shape('ResendEmail', email);
    assert.equal(email?.object, 'email');
    // The From header as stored (display names are quoted when the message is built).
    assert.match(email?.from ?? '', /^"?Shop"? <orders@shop\.example\.com>$/);
    assert.deepEqual(email?.to, ['buyer@dest.test', 'Second Buyer <second@dest.test>']);
    assert.deepEqual(email?.cc, ['copy@dest.test']);
    assert.deepEqual(email?.bcc, ['audit@dest.test']);
    assert.deepEqual(email?.reply_to, ['help@shop.example.com', 'sales@shop.example.com']);
    assert.equal(email?.subject, 'Your order #42');
    assert.equal(email?.html, '<p>Thanks <img src="cid:logo"></p>');
    assert.equal(email?.text, 'Thanks');
    assert.deepEqual(email?.tags, [
      { name: 'category', value: 'receipt' },
      { name: 'order', value: '42' },
    ]);
    assert.equal(email?.scheduled_at, null);
    assert.match(email?.created_at ?? '', /^\d{4}-\d\d-\d\dT/);

    const copies = await sending.sink.waitForMessages(1);
    const message = copies.find((m) => m.rcptTo.includes('buyer@dest.test'));
    assert.ok(message, 'the sink got the message');
    const raw = message.raw.toString('latin1');
    assert.doesNotMatch(raw, /^bcc:/im);
    const parsed = await simpleParser(message.raw);
    assert.equal(parsed.subject, 'Your order #42');
    assert.deepEqual(parsed.from?.value[0], { name: 'Shop', address: `orders@${DOMAIN}` });
    assert.equal(parsed.headers.get('x-entity-ref-id'), 'order-42');
    assert.match(raw, /^List-Unsubscribe: <https:\/\/shop\.example\.com\/unsubscribe\/42>\r$/m);
    assert.match(raw, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    assert.match(parsed.headers.get('reply-to') ? JSON.stringify(parsed.replyTo?.value) : '', /sales@/);
    assert.match(parsed.cc ? JSON.stringify(parsed.cc) : '', /copy@dest\.test/);
    const logo = parsed.attachments.find((a) => a.cid === 'logo');
    assert.equal(logo?.contentType, 'image/png');
    assert.equal(logo?.contentDisposition, 'inline');
    assert.deepEqual(logo?.content, PNG);
    const receipt = parsed.attachments.find((a) => a.filename === 'receipt.txt');
    assert.equal(receipt?.content.toString(), 'total 42');
    const auth = await authenticate(message.raw, {
      ip: '127.0.0.1',
      helo: 'mx.mailroom.test',
      sender: message.mailFrom,
      resolver: fakeDnsResolver(sending.dns),
    });
    assert.equal(auth.dkim.results[0]?.status.result, 'pass', JSON.stringify(auth.dkim.results[0]?.status));
    // RFC 8058 §4: the one-click headers are covered by the DKIM signature.
    const signed = auth.dkim.results[0]?.signingHeaders?.keys ?? '';
    assert.match(signed.toLowerCase(), /list-unsubscribe-post/);
  });

  it('RESEND_BASE_URL alone switches an unchanged `new Resend(key)` to the appliance', async () => {
    const saved = process.env.RESEND_BASE_URL;
    process.env.RESEND_BASE_URL = sending.app.baseUrl;
    try {
      const unchanged = new Resend(sending.apiKey);
      const { data, error } = await unchanged.emails.send({
        from: `orders@${DOMAIN}`,
        to: 'env@dest.test',
        subject: 'Switched by the environment',
        text: 'x',
      });
      assert.equal(error, null, JSON.stringify(error));
      assert.equal((await unchanged.emails.get(data.id)).data?.subject, 'Switched by the environment');
    } finally {
      if (saved === undefined) delete process.env.RESEND_BASE_URL;
      else process.env.RESEND_BASE_URL = saved;
    }
  });

  it('batch.send queues every email or none; errors name the email by position', async () => {
    const { data, error } = await resend.batch.send([
      { from: `orders@${DOMAIN}`, to: 'one@dest.test', subject: 'Batch 1', text: 'one' },
      {
        from: `orders@${DOMAIN}`,
        to: ['two@dest.test'],
        subject: 'Batch 2',
        html: '<p>two</p>',
        tags: [{ name: 'kind', value: 'batch' }],
      },
    ]);
    assert.equal(error, null, JSON.stringify(error));
    shape('ResendBatch', data);
    assert.equal(data.data.length, 2);
    const [first, second] = data.data;
    assert.match(first?.id ?? '', /^email_/);
    const got = await resend.emails.get(second?.id ?? '');
    assert.equal(got.data?.subject, 'Batch 2');
    assert.deepEqual(got.data?.tags, [{ name: 'kind', value: 'batch' }]);

    const before = (await resend.emails.list({ limit: 100 })).data?.data.length;
    const refused = await resend.batch.send([
      { from: `orders@${DOMAIN}`, to: 'three@dest.test', subject: 'Batch 3', text: 'three' },
      { from: `orders@${DOMAIN}`, to: 'four@dest.test', subject: 'Batch 4', text: 'x', replyTo: 'nope' },
    ]);
    assert.equal(refused.error?.statusCode, 422);
    assert.equal(refused.error?.name, 'validation_error');
    shape('ResendError', refused.error);
    assert.match(refused.error?.message ?? '', /^\[1\] reply_to/);
    assert.equal((await resend.emails.list({ limit: 100 })).data?.data.length, before, 'nothing queued');

    const permissive = await resend.batch.send(
      [{ from: `orders@${DOMAIN}`, to: 'five@dest.test', subject: 'x', text: 'x' }],
      { batchValidation: 'permissive' },
    );
    assert.equal(permissive.error?.statusCode, 501);
  });

  it('emails.list pages newest first with `after`', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const { data } = await resend.emails.send({
        from: `orders@${DOMAIN}`,
        to: 'buyer@dest.test',
        subject: `List ${n}`,
        text: 'x',
      });
      ids.unshift(data!.id);
    }
    const first = await resend.emails.list({ limit: 2 });
    assert.equal(first.error, null);
    shape('ResendEmailList', first.data);
    assert.equal(first.data?.object, 'list');
    assert.equal(first.data?.has_more, true);
    assert.deepEqual(
      first.data?.data.map((e) => e.id),
      ids.slice(0, 2),
    );
    assert.equal(first.data?.data[0]?.subject, 'List 3');
    const next = await resend.emails.list({ limit: 2, after: ids[1] });
    assert.equal(next.data?.data[0]?.id, ids[2]);
  });

  it('a scheduled email: last_event scheduled, then emails.cancel: canceled', async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const { data, error } = await resend.emails.send({
      from: `orders@${DOMAIN}`,
      to: 'later@dest.test',
      subject: 'Later',
      text: 'x',
      scheduledAt: at,
    });
    assert.equal(error, null, JSON.stringify(error));
    const got = await resend.emails.get(data.id);
    assert.equal(got.data?.last_event, 'scheduled');
    assert.equal(Date.parse(got.data?.scheduled_at ?? ''), Date.parse(at));
    const later = new Date(Date.now() + 7200_000).toISOString();
    const moved = await resend.emails.update({ id: data.id, scheduledAt: later });
    assert.deepEqual(moved.data, { object: 'email', id: data.id });
    shape('ResendObjectId', moved.data);
    assert.equal(Date.parse((await resend.emails.get(data.id)).data?.scheduled_at ?? ''), Date.parse(later));
    const badTime = await resend.emails.update({ id: data.id, scheduledAt: 'in 1 min' });
    assert.equal(badTime.error?.name, 'validation_error');
    assert.match(badTime.error?.message ?? '', /^scheduled_at/);
    const cancelled = await resend.emails.cancel(data.id);
    assert.deepEqual(cancelled.data, { object: 'email', id: data.id });
    assert.equal((await resend.emails.get(data.id)).data?.last_event, 'canceled');
    // Cancelling again: the email is past cancelling, a readable validation_error.
    const twice = await resend.emails.cancel(data.id);
    assert.equal(twice.error?.name, 'validation_error');
    assert.match(twice.error?.message ?? '', /cancel/i);
  });

  it('401, 404 and 422 reach the SDK user with a readable name and message', async () => {
    const wrongKey = new Resend('re_live_not-a-key-this-appliance-issued', { baseUrl: sending.app.baseUrl });
    const unauthorized = await wrongKey.emails.get('email_00000000000000000000000000');
    assert.deepEqual(unauthorized.error, {
      statusCode: 401,
      name: 'invalid_api_key',
      message: 'API key unknown or revoked',
    });
    // A key in Resend's own format, as a user switching would first try.
    const resendKey = new Resend('re_123456789', { baseUrl: sending.app.baseUrl });
    const foreign = await resendKey.emails.list();
    assert.equal(foreign.error?.statusCode, 401);
    assert.equal(foreign.error?.name, 'invalid_api_key');

    const missing = await resend.emails.get('email_00000000000000000000000000');
    assert.deepEqual(missing.error, {
      statusCode: 404,
      name: 'not_found',
      message: 'No such message on this account',
    });

    const invalid = await resend.emails.send({
      from: `orders@${DOMAIN}`,
      to: 'buyer@dest.test',
      subject: 'No body',
      replyTo: 'not an address',
      text: 'x',
    });
    assert.equal(invalid.error?.statusCode, 422);
    assert.equal(invalid.error?.name, 'validation_error');
    assert.match(invalid.error?.message ?? '', /reply_?to/i);

    const inline = await resend.emails.send({
      from: `orders@${DOMAIN}`,
      to: 'buyer@dest.test',
      subject: 'Inline',
      html: '<p>no image</p>',
      attachments: [{ filename: 'a.png', content: PNG, contentId: 'logo' }],
    });
    assert.equal(inline.error?.name, 'validation_error');
    assert.match(
      inline.error?.message ?? '',
      /^attachments\.0\.content_id: the html must reference it as cid:logo/,
    );

    const unverified = await resend.emails.send({
      from: 'someone@not-mine.example',
      to: 'buyer@dest.test',
      subject: 'x',
      text: 'x',
    });
    assert.equal(unverified.error?.statusCode, 404);
    assert.equal(unverified.error?.name, 'not_found');
    assert.match(unverified.error?.message ?? '', /domain/i);
  });

  it('429: a spent daily allowance is daily_quota_exceeded with a readable message', async () => {
    const other = await sending.app.api.registerWithKey();
    await addVerifiedDomain(sending.app, sending.dns, other.token, 'quota.example.com');
    const lowered = await sending.app.api.patch('/v1/settings/limits', {
      token: other.token,
      body: { emailsPerDay: 1 },
    });
    assert.equal(lowered.status, 200, lowered.text);
    const client = new Resend(other.apiKey, { baseUrl: sending.app.baseUrl });
    const mail = { from: 'a@quota.example.com', to: 'b@dest.test', subject: 'q', text: 'q' };
    assert.equal((await client.emails.send(mail)).error, null);
    const refused = await client.emails.send(mail);
    assert.equal(refused.error?.statusCode, 429);
    assert.equal(refused.error?.name, 'daily_quota_exceeded');
    assert.match(refused.error?.message ?? '', /Daily sending allowance/);
    assert.ok(Number(refused.headers?.['retry-after']) > 0);
  });

  it('unsupported features answer 501 naming the feature, never a 404 of a parent', async () => {
    const contacts = await resend.contacts.list();
    assert.equal(contacts.error?.statusCode, 501);
    assert.equal(contacts.error?.name, 'not_implemented' as never);
    assert.match(contacts.error?.message ?? '', /Contacts/);

    const broadcasts = await resend.broadcasts.list();
    assert.match(broadcasts.error?.message ?? '', /Broadcasts/);
    const receiving = await resend.emails.receiving.list();
    assert.equal(receiving.error?.statusCode, 501);
    assert.match(receiving.error?.message ?? '', /Receiving emails/);

    const template = await resend.emails.send({
      from: `orders@${DOMAIN}`,
      to: 'buyer@dest.test',
      template: { id: 'tmpl_1' },
    });
    assert.equal(template.error?.statusCode, 501);
    assert.match(template.error?.message ?? '', /template/);

    // Every failure under the surface is Resend-shaped, the router's own included.
    const auth = { authorization: `Bearer ${sending.apiKey}`, 'content-type': 'application/json' };
    const put = await fetch(`${sending.app.baseUrl}/emails`, { method: 'PUT', headers: auth, body: '{}' });
    assert.equal(put.status, 405);
    assert.deepEqual(await put.json(), {
      statusCode: 405,
      name: 'method_not_allowed',
      message: 'PUT is not allowed here',
    });
    const deep = await fetch(`${sending.app.baseUrl}/domains/dom_x/records/1`, { headers: auth });
    assert.equal(deep.status, 404);
    assert.equal(((await deep.json()) as { name: string }).name, 'not_found');

    // Anonymous: 401 first, as Resend answers; what is implemented is not disclosed.
    const anonymous = await fetch(`${sending.app.baseUrl}/contacts`);
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as { name: string }).name, 'missing_api_key');
  });

  it('/emails is the API whatever Accept says; the dashboard is under /app/ (issue 30)', async () => {
    const page = await fetch(`${sending.app.baseUrl}/emails`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 401);
    assert.equal(((await page.json()) as { name: string }).name, 'missing_api_key');
    const api = await fetch(`${sending.app.baseUrl}/emails`, {
      headers: { accept: 'text/html', authorization: `Bearer ${sending.apiKey}` },
    });
    assert.equal(api.status, 200);
    assert.equal(((await api.json()) as { object: string }).object, 'list');
  });

  it('/v1 keeps its own error shape', async () => {
    const res = await sending.app.api.get('/v1/emails/email_00000000000000000000000000', {
      token: sending.apiKey,
    });
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys(res.body), ['error']);
  });
});
