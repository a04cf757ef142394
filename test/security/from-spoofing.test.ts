// Issue 17, finding 4: sending as domains the account never verified. A comma in an
// unquoted display name was one mailbox to our parser and two to nodemailer's, so
// `ceo@bank.example, <news@a.example>` went out as `From: ceo@bank.example, news@a.example`
// signed by a.example; a second From (or Sender) on submission was relayed untouched;
// and the DKIM signature did not cover a From added later.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { after, before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate, dkimVerify } from 'mailauth';
import addressparser from 'nodemailer/lib/addressparser';
import { generateDkimKeyPair } from '../../src/modules/domains/dkim-key';
import { parseMailbox } from '../../src/mail/address';
import type { EmailRow } from '../../src/modules/emails/emails.repository';
import { buildMime, mimeInputFrom } from '../../src/modules/delivery/mime-builder';
import type { DkimSigningKey } from '../../src/mail/dkim-sign';
import { dkimSignatureValue } from '../../src/mail/dkim-sign';
import { originatorFieldsRefusal, parseSubmission } from '../../src/modules/sending/submission-message';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import { SmtpClient } from '../helpers/smtp-client';

const SPOOF = 'ceo@bank.example, <news@a.example>';

/** The mailboxes a From header names, as nodemailer (and most receivers) read it. */
function fromMailboxes(raw: string): string[] {
  const header = /^From:[ \t]*(.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return addressparser(header.replace(/\r\n[ \t]/g, ' '), { flatten: true }).map((a) => a.address);
}

function headerCount(raw: string, name: string): number {
  const head = raw.split('\r\n\r\n')[0] ?? '';
  return head.split('\r\n').filter((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`)).length;
}

describe('From parsing: one mailbox or nothing', () => {
  for (const input of [
    SPOOF,
    'ceo@bank.example, news@a.example',
    'Boss, <news@a.example>',
    'Team: news@a.example;',
    'a; b <news@a.example>',
    'x:y <news@a.example>',
  ]) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      assert.equal(parseMailbox(input), undefined);
    });
  }

  it('accepts a quoted display name with a comma, as one mailbox', () => {
    const m = parseMailbox('"ceo@bank.example, Inc" <news@a.example>');
    assert.equal(m?.address, 'news@a.example');
    assert.equal(m?.name, 'ceo@bank.example, Inc');
  });

  it('builds From from the authorized address, never from the stored text', async () => {
    // A row accepted before the fix: its header text names two mailboxes.
    const email = {
      id: 'email_1',
      from_address: 'news@a.example',
      from_header: SPOOF,
      subject: 'Hi',
      reply_to: JSON.stringify(['"Desk, Sales" <desk@a.example>', 'x@bank.example, <y@a.example>']),
      headers: null,
      html: null,
      text: 'Hi',
      message_id: '<email_1@a.example>',
      scheduled_at: null,
      created_at: '2030-01-01T00:00:00.000Z',
    } as unknown as EmailRow;
    const raw = (
      await buildMime(mimeInputFrom(email, [{ address: 'to@example.org', name: null, type: 'to' }], []))
    ).toString('latin1');
    assert.deepEqual(fromMailboxes(raw), ['news@a.example']);
    assert.equal(headerCount(raw, 'From'), 1);
    const replyTo = /^Reply-To: (.*)$/m.exec(raw)?.[1] ?? '';
    assert.deepEqual(
      addressparser(replyTo, { flatten: true }).map((a) => a.address),
      ['desk@a.example'],
    );
  });
});

describe('DKIM over-signs From', () => {
  const message = [
    'From: Shop <news@a.example>',
    'To: to@example.org',
    'Subject: Receipt',
    'Date: Wed, 01 Jan 2025 00:00:00 +0000',
    'Message-ID: <email_1@a.example>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Thanks',
    '',
  ].join('\r\n');
  let key: DkimSigningKey;
  let resolver: DNSResolver;

  before(async () => {
    const pair = await generateDkimKeyPair();
    key = { domain: 'a.example', selector: 'mr202501sec', privateKeyPem: pair.privateKeyPem };
    resolver = (name, rrtype) =>
      rrtype === 'TXT' && name === 'mr202501sec._domainkey.a.example'
        ? Promise.resolve([[`v=DKIM1; k=rsa; p=${pair.publicKey}`]])
        : Promise.reject(Object.assign(new Error('none'), { code: 'ENOTFOUND' }));
  });

  async function verify(raw: string): Promise<string | undefined> {
    const result = await dkimVerify(Buffer.from(raw), { resolver });
    return result.results[0]?.status.result;
  }

  it('lists from twice in h=, verifies as sent, fails once a second From is added', async () => {
    const value = await dkimSignatureValue(Buffer.from(message), key);
    const h = (/h=([^;]+);/.exec(value.replace(/\s+/g, ''))?.[1] ?? '').toLowerCase().split(':');
    assert.equal(h.filter((n) => n === 'from').length, 2, h.join(':'));
    const signed = `DKIM-Signature: ${value}\r\n${message}`;
    assert.equal(await verify(signed), 'pass');

    const prepended = `From: ceo@bank.example\r\n${signed}`;
    assert.equal(await verify(prepended), 'fail');
    const [head, body] = signed.split('\r\n\r\n');
    assert.equal(await verify(`${head}\r\nFrom: ceo@bank.example\r\n\r\n${body}`), 'fail');
  });
});

describe('submission: the originator fields', () => {
  const refusal = (headers: string) =>
    originatorFieldsRefusal(parseSubmission(Buffer.from(`${headers}\r\n\r\nx\r\n`)).fields);

  for (const headers of [
    'From: a@a.example\r\nFrom: ceo@bank.example',
    'From: a@a.example\r\nSender: a@a.example\r\nsender: ceo@bank.example',
    'From: a@a.example\r\nReply-To: a@a.example\r\nREPLY-TO: b@bank.example',
    'From: a@a.example, ceo@bank.example',
    'From: Team: a@a.example, ceo@bank.example;',
    'From: a@a.example\r\nSender: a@a.example, ceo@bank.example',
  ]) {
    it(`refuses ${JSON.stringify(headers)}`, () => {
      assert.ok(refusal(headers));
    });
  }

  it('accepts one of each, Reply-To with several addresses', () => {
    assert.equal(
      refusal('From: "A, B" <a@a.example>\r\nSender: a@a.example\r\nReply-To: x@a.example, y@a.example'),
      undefined,
    );
  });
});

describe('the appliance: API and submission refuse a forged From', () => {
  const DOMAIN = 'a-sec.example.com';
  let s: SendingAppliance;

  before(async () => {
    s = await startSendingAppliance(DOMAIN, { SUBMISSION_ALLOW_PLAINTEXT: 'true' });
  });
  after(async () => {
    await s.stop();
  });

  async function listed(): Promise<number> {
    const res = await s.app.api.get<{ data: unknown[] }>('/v1/emails', { token: s.apiKey });
    return res.body.data.length;
  }

  it('answers 422 INVALID_FROM_ADDRESS for a multi-mailbox from and stores nothing', async () => {
    const res = await s.app.api.post<{ error: { code: string; message: string } }>('/v1/emails', {
      token: s.apiKey,
      body: { from: `ceo@bank.example, <news@${DOMAIN}>`, to: 'to@example.org', subject: 'x', text: 'x' },
    });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error.code, 'INVALID_FROM_ADDRESS');
    assert.equal(await listed(), 0);
  });

  it('relays exactly one From mailbox, DKIM-signed with from over-signed', async () => {
    const res = await s.app.api.post<{ id: string }>('/v1/emails', {
      token: s.apiKey,
      body: { from: `"Bank, Inc" <news@${DOMAIN}>`, to: 'to@example.org', subject: 'x', text: 'x' },
    });
    assert.equal(res.status, 202, res.text);
    const [message] = await s.sink.waitForMessages(1, 30_000);
    assert.ok(message);
    const raw = message.raw.toString('latin1');
    assert.equal(headerCount(raw, 'From'), 1);
    assert.deepEqual(fromMailboxes(raw), [`news@${DOMAIN}`]);
    const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([s.dns.address]);
    const auth = await authenticate(message.raw, {
      ip: '127.0.0.1',
      helo: 'mx.mailroom.test',
      sender: message.mailFrom,
      resolver: (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>,
    });
    const dkim = auth.dkim.results[0];
    assert.equal(dkim?.status.result, 'pass', JSON.stringify(auth.dkim.results));
    const signature = /^DKIM-Signature:(.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
    const h = (/h=([^;]+);/.exec(signature.replace(/\s+/g, ''))?.[1] ?? '').toLowerCase().split(':');
    assert.equal(h.filter((n) => n === 'from').length, 2, h.join(':'));
  });

  it('refuses a second From, a repeated Sender and a two-mailbox From over submission', async () => {
    const before = await listed();
    const auth = Buffer.from(`\0user\0${s.apiKey}`).toString('base64');
    for (const headers of [
      `From: news@${DOMAIN}\r\nFrom: ceo@bank.example`,
      `From: news@${DOMAIN}\r\nSender: news@${DOMAIN}\r\nSender: ceo@bank.example`,
      `From: ceo@bank.example, news@${DOMAIN}`,
    ]) {
      const { client } = await SmtpClient.connect(s.app.ports.submission);
      await client.command('EHLO client.example.org');
      assert.equal((await client.command(`AUTH PLAIN ${auth}`)).code, 235);
      assert.equal((await client.command(`MAIL FROM:<news@${DOMAIN}>`)).code, 250);
      assert.equal((await client.command('RCPT TO:<to@example.org>')).code, 250);
      assert.equal((await client.command('DATA')).code, 354);
      const reply = await client.raw(`${headers}\r\nTo: to@example.org\r\nSubject: s\r\n\r\nbody\r\n.\r\n`);
      assert.equal(reply.code, 550, `${headers}: ${reply.raw}`);
      assert.match(reply.raw, /^550 5\.7\.1 /, reply.raw);
      client.close();
    }
    assert.equal(await listed(), before);
  });
});
