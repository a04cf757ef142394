// Issue 20 item 2: what Resend's SDKs send that /v1 refused, delivered for real (API →
// worker → Haraka with DKIM → sink), and the headers that stay the service's.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { after, before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import { verpAddress } from '../../src/mail/verp-address';
import type { SendingAppliance } from '../helpers/sending-appliance';
import { startSendingAppliance } from '../helpers/sending-appliance';
import type { FakeDns } from '../helpers/dns-server';
import { waitUntil } from '../helpers/wait-until';

const DOMAIN = 'news.example.com';

interface ErrorBody {
  error: { code: string; details: { fields?: { field: string; message: string }[] } };
}

function fakeDnsResolver(server: FakeDns): DNSResolver {
  const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server.address]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[] | string[][]>;
}

describe('send body: replyTo lists, tag lists, attachment aliases and byte arrays, list and threading headers', () => {
  let s: SendingAppliance;

  before(async () => {
    s = await startSendingAppliance(DOMAIN);
  });
  after(async () => {
    await s.stop();
  });

  const base = {
    from: `News <letters@${DOMAIN}>`,
    to: 'reader@dest.test',
    subject: 'Issue 7',
    text: 'Hello',
  };
  const send = (body: Record<string, unknown>) =>
    s.app.api.post<{ id: string } & ErrorBody>('/v1/emails', { token: s.apiKey, body: { ...base, ...body } });

  it('delivers them, and DKIM signs List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 §4)', async () => {
    const logo = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const res = await send({
      html: '<p>Hi <img src="cid:logo"></p>',
      replyTo: ['Desk <desk@news.example.com>', 'editor@news.example.com'],
      tags: [
        { name: 'campaign', value: 'issue-7' },
        { name: 'segment', value: 'all' },
      ],
      headers: {
        'List-Unsubscribe': '<mailto:unsub@news.example.com>, <https://news.example.com/u/42>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'List-Id': 'Weekly news <weekly.news.example.com>',
        'In-Reply-To': '<prev@news.example.com>',
        References: '<first@news.example.com> <prev@news.example.com>',
        'X-Entity-Ref-ID': 'issue-7',
      },
      attachments: [
        { filename: 'logo.png', content: logo, contentType: 'image/png', contentId: 'logo' },
        { filename: 'notes.txt', content: [...Buffer.from('page 2')], contentType: 'text/plain' },
      ],
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id = res.body.id;
    const got = await s.app.api.get<{ tags: unknown; replyTo: unknown }>(`/v1/emails/${id}`, {
      token: s.apiKey,
    });
    assert.deepEqual(got.body.tags, { campaign: 'issue-7', segment: 'all' });

    const verp = verpAddress(id, DOMAIN);
    await waitUntil(
      'the message at the sink',
      () => s.sink.messages.some((m) => m.mailFrom === verp),
      40_000,
    );
    const message = s.sink.messages.find((m) => m.mailFrom === verp);
    assert.ok(message);
    const parsed = await simpleParser(message.raw);
    // Unfolded (RFC 5322 §2.2.3): the composer folds a long List-Unsubscribe.
    const raw = message.raw.toString('latin1').replace(/\r\n[ \t]+/g, ' ');
    assert.match(
      raw,
      /^List-Unsubscribe: <mailto:unsub@news\.example\.com>, <https:\/\/news\.example\.com\/u\/42>\r$/m,
    );
    assert.match(raw, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    assert.match(raw, /^List-Id: Weekly news <weekly\.news\.example\.com>\r$/im);
    assert.equal(parsed.inReplyTo, '<prev@news.example.com>');
    assert.deepEqual(parsed.references, ['<first@news.example.com>', '<prev@news.example.com>']);
    assert.match(raw, /^X-Entity-Ref-ID: issue-7\r$/m);
    assert.deepEqual(
      parsed.replyTo?.value.map((a) => a.address),
      ['desk@news.example.com', 'editor@news.example.com'],
    );
    const inline = parsed.attachments.find((a) => a.cid === 'logo');
    assert.deepEqual(inline && [...inline.content], logo);
    assert.equal(inline?.contentType, 'image/png');
    assert.equal(parsed.attachments.find((a) => a.filename === 'notes.txt')?.content.toString(), 'page 2');

    const auth = await authenticate(message.raw, {
      ip: '127.0.0.1',
      helo: 'mx.mailroom.test',
      sender: message.mailFrom,
      resolver: fakeDnsResolver(s.dns),
    });
    const dkim = auth.dkim.results[0];
    assert.equal(dkim?.status.result, 'pass', JSON.stringify(dkim?.status));
    const signed = (dkim?.signingHeaders?.keys ?? '')
      .toLowerCase()
      .split(':')
      .map((k) => k.trim());
    assert.ok(signed.includes('list-unsubscribe'), signed.join(':'));
    assert.ok(signed.includes('list-unsubscribe-post'), signed.join(':'));
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['Bcc', { headers: { Bcc: 'spy@example.org' } }, 'headers.Bcc'],
    ['DKIM-Signature', { headers: { 'DKIM-Signature': 'v=1' } }, 'headers.DKIM-Signature'],
    ['Message-ID', { headers: { 'Message-ID': '<x@y>' } }, 'headers.Message-ID'],
    ['From', { headers: { From: 'boss@bank.example' } }, 'headers.From'],
    ['To', { headers: { To: 'x@example.org' } }, 'headers.To'],
    ['Subject', { headers: { Subject: 'other' } }, 'headers.Subject'],
    ['a line break', { headers: { 'List-Id': 'a\r\nBcc: spy@example.org' } }, 'headers.List-Id'],
    [
      'another one-click value',
      { headers: { 'List-Unsubscribe': '<https://a.example/u>', 'List-Unsubscribe-Post': 'yes' } },
      'headers.List-Unsubscribe-Post',
    ],
    [
      'one-click without an https URI',
      {
        headers: {
          'List-Unsubscribe': '<mailto:u@a.example>',
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      },
      'headers.List-Unsubscribe-Post',
    ],
    [
      'one-click without List-Unsubscribe',
      { headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } },
      'headers.List-Unsubscribe-Post',
    ],
    [
      'a List-Unsubscribe that is no <uri> list',
      { headers: { 'List-Unsubscribe': 'https://a.example/u' } },
      'headers.List-Unsubscribe',
    ],
    [
      'a duplicate tag name',
      {
        tags: [
          { name: 'a', value: '1' },
          { name: 'a', value: '2' },
        ],
      },
      'tags.1.name',
    ],
    ['a bad tag name', { tags: [{ name: 'a b', value: '1' }] }, 'tags'],
    [
      'a byte over 255',
      { attachments: [{ filename: 'a.bin', content: [1, 256] }] },
      'attachments.0.content.1',
    ],
    [
      'a contentId that differs from cid',
      {
        html: '<img src="cid:a">',
        attachments: [{ filename: 'a.png', content: 'AA==', cid: 'a', contentId: 'b' }],
      },
      'attachments.0.contentId',
    ],
  ];
  for (const [what, body, field] of refused) {
    it(`refuses ${what} (422 naming ${field})`, async () => {
      const res = await send(body);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      const fields = res.body.error.details.fields?.map((f) => f.field) ?? [];
      assert.ok(
        fields.some((f) => f.startsWith(field)),
        JSON.stringify(fields),
      );
    });
  }
});
