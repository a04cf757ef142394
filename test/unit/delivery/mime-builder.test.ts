import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AddressObject } from 'mailparser';
import { simpleParser } from 'mailparser';
import type { EmailRow } from '../../../src/modules/emails/emails.repository';
import type { MimeInput } from '../../../src/modules/delivery/mime-builder';
import { buildMime, mimeInputFrom } from '../../../src/modules/delivery/mime-builder';

/** One node of the MIME tree, read straight from the bytes (mailparser flattens the tree). */
interface Part {
  readonly type: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly children: readonly Part[];
}

function readHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return headers;
}

function tree(raw: string): Part {
  const split = raw.indexOf('\r\n\r\n');
  const headers = readHeaders(split < 0 ? raw : raw.slice(0, split));
  const body = split < 0 ? '' : raw.slice(split + 4);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!type.startsWith('multipart/')) return { type, headers, children: [] };
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  assert.ok(boundary, `multipart without boundary: ${contentType}`);
  const end = body.indexOf(`\r\n--${boundary}--`);
  const sections = body.slice(0, end).split(`--${boundary}\r\n`).slice(1);
  return {
    type,
    headers,
    children: sections.map((s) => tree(s.replace(/\r\n$/, ''))),
  };
}

function shape(p: Part): unknown {
  return p.children.length > 0 ? { [p.type]: p.children.map(shape) } : p.type;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n% binary \u00ff\u00fe\n', 'latin1');

function input(overrides: Partial<MimeInput> = {}): MimeInput {
  return {
    from: 'Acme Billing <billing@acme.test>',
    to: ['ann@example.org'],
    cc: ['carl@example.org'],
    replyTo: ['support@acme.test'],
    subject: 'Your receipt',
    html: '<p>Thanks</p><img src="cid:logo@acme">',
    text: 'Thanks',
    headers: { 'X-Campaign': 'spring', 'X-Entity-Ref-ID': 'r-1' },
    messageId: '<email_01abc@acme.test>',
    date: new Date('2030-05-06T07:08:09.000Z'),
    attachments: [
      { filename: 'logo.png', contentType: 'image/png', cid: 'logo@acme', content: PNG },
      { filename: 'invoice.pdf', contentType: 'application/pdf', cid: null, content: PDF },
    ],
    ...overrides,
  };
}

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? ''));
}

describe('MIME builder', () => {
  it('nests multipart/mixed > alternative (text, related (html, inline image)) + attachment', async () => {
    const raw = await buildMime(input());
    assert.deepEqual(shape(tree(raw.toString('latin1'))), {
      'multipart/mixed': [
        {
          'multipart/alternative': ['text/plain', { 'multipart/related': ['text/html', 'image/png'] }],
        },
        'application/pdf',
      ],
    });
    const root = tree(raw.toString('latin1'));
    const related = root.children[0]!.children[1]!;
    const image = related.children[1]!;
    assert.equal(image.headers.get('content-id'), '<logo@acme>');
    assert.match(image.headers.get('content-disposition') ?? '', /^inline/);
    const pdf = root.children[1]!;
    assert.match(pdf.headers.get('content-disposition') ?? '', /^attachment; filename=invoice\.pdf$/);
  });

  it('parses back with the headers, bodies and attachments as stored', async () => {
    const parsed = await simpleParser(await buildMime(input()), { keepCidLinks: true });
    assert.equal(parsed.messageId, '<email_01abc@acme.test>');
    assert.equal(parsed.subject, 'Your receipt');
    assert.equal(parsed.date?.toISOString(), '2030-05-06T07:08:09.000Z');
    assert.deepEqual(addresses(parsed.from), ['billing@acme.test']);
    assert.equal((Array.isArray(parsed.from) ? undefined : parsed.from)?.value[0]?.name, 'Acme Billing');
    assert.deepEqual(addresses(parsed.to), ['ann@example.org']);
    assert.deepEqual(addresses(parsed.cc), ['carl@example.org']);
    assert.deepEqual(addresses(parsed.replyTo), ['support@acme.test']);
    assert.equal(parsed.headers.get('x-campaign'), 'spring');
    assert.equal(parsed.headers.get('x-entity-ref-id'), 'r-1');
    assert.equal(parsed.text?.trim(), 'Thanks');
    assert.match(String(parsed.html), /<img src="cid:logo@acme">/);
    const [logo, invoice] = parsed.attachments;
    assert.equal(logo?.cid, 'logo@acme');
    assert.equal(logo?.contentDisposition, 'inline');
    assert.equal(logo?.related, true);
    assert.deepEqual(logo?.content, PNG);
    assert.equal(invoice?.filename, 'invoice.pdf');
    assert.equal(invoice?.contentDisposition, 'attachment');
    assert.equal(invoice?.contentType, 'application/pdf');
    assert.deepEqual(invoice?.content, PDF);
  });

  it('has only the levels the content needs', async () => {
    const kinds = async (o: Partial<MimeInput>) =>
      shape(tree((await buildMime(input(o))).toString('latin1')));
    assert.equal(await kinds({ text: null, attachments: [], html: '<p>x</p>' }), 'text/html');
    assert.equal(await kinds({ html: null, attachments: [] }), 'text/plain');
    assert.deepEqual(await kinds({ attachments: [], html: '<p>x</p>' }), {
      'multipart/alternative': ['text/plain', 'text/html'],
    });
    assert.deepEqual(await kinds({ text: null, attachments: input().attachments.slice(0, 1) }), {
      'multipart/related': ['text/html', 'image/png'],
    });
    assert.deepEqual(await kinds({ html: null, attachments: input().attachments.slice(1) }), {
      'multipart/mixed': ['text/plain', 'application/pdf'],
    });
  });

  it('encodes non-ASCII subject, names and filenames so they read back intact', async () => {
    const parsed = await simpleParser(
      await buildMime(
        input({
          from: 'Zoë Ångström <zoe@acme.test>',
          subject: 'Reçu n° 42 — merci ✓',
          attachments: [
            { filename: 'facture été.pdf', contentType: 'application/pdf', cid: null, content: PDF },
          ],
        }),
      ),
    );
    assert.equal(parsed.subject, 'Reçu n° 42 — merci ✓');
    assert.equal((Array.isArray(parsed.from) ? undefined : parsed.from)?.value[0]?.name, 'Zoë Ångström');
    assert.equal(parsed.attachments[0]?.filename, 'facture été.pdf');
  });
});

describe('MIME input from the stored message', () => {
  const email: EmailRow = {
    id: 'email_01abc',
    user_id: 'usr_1',
    domain_id: 'dom_1',
    api_key_id: null,
    source: 'api',
    from_address: 'billing@acme.test',
    from_header: 'Acme <billing@acme.test>',
    subject: 'Hi',
    reply_to: JSON.stringify(['a@acme.test', 'b@acme.test']),
    headers: JSON.stringify({ 'X-Ref': '7' }),
    tags: JSON.stringify({ kind: 'receipt-tag-value' }),
    metadata: JSON.stringify({ orderId: 'metadata-secret-value' }),
    html: '<p>Hi</p>',
    text: 'Hi',
    message_id: '<email_01abc@acme.test>',
    size_bytes: 10,
    status: 'processing',
    attempts: 1,
    smtp_response: null,
    scheduled_at: null,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    sent_at: null,
    delivered_at: null,
    mode: 'live',
    unverified_domain: 0,
    mta_node: null,
  };
  const recipients = [
    { address: 'to1@example.org', name: null, type: 'to' as const },
    { address: 'cc1@example.org', name: 'Carla Cé', type: 'cc' as const },
    { address: 'bcc1@example.org', name: 'Hidden', type: 'bcc' as const },
    { address: 'to2@example.org', name: null, type: 'to' as const },
  ];

  it('puts to and cc in headers, never bcc, metadata or tags', async () => {
    const m = mimeInputFrom(email, recipients, []);
    assert.deepEqual(m.to, ['to1@example.org', 'to2@example.org']);
    assert.deepEqual(m.cc, [{ name: 'Carla Cé', address: 'cc1@example.org' }]);
    assert.deepEqual(m.replyTo, ['a@acme.test', 'b@acme.test']);
    assert.deepEqual(m.headers, { 'X-Ref': '7' });
    assert.equal(m.date.toISOString(), '2030-01-01T00:00:00.000Z');
    const raw = (await buildMime(m)).toString('latin1');
    assert.ok(!raw.includes('bcc1@example.org'));
    assert.ok(!raw.includes('Hidden'));
    // The display name travels RFC 2047-encoded (non-ASCII), the address as given.
    assert.match(raw, /^Cc: =\?UTF-8\?Q\?Carla_C=C3=A9\?= <cc1@example\.org>$/m);
    assert.ok(!/^bcc:/im.test(raw));
    assert.ok(!raw.includes('metadata-secret-value'));
    assert.ok(!raw.includes('receipt-tag-value'));
    assert.match(raw, /^Message-ID: <email_01abc@acme\.test>$/m);
  });

  it('dates a scheduled message at its scheduled time', () => {
    const m = mimeInputFrom({ ...email, scheduled_at: '2030-02-02T10:00:00.000Z' }, recipients, []);
    assert.equal(m.date.toISOString(), '2030-02-02T10:00:00.000Z');
  });
});
