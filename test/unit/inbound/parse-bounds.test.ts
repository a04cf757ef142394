// The parse bounds of received mail (docs/inbound.md, "Messages that cannot be parsed"): up to
// each bound a message parses, one past it is UnparsableMessageError; ordinary messages built by
// a real mail library never trip the shape scan; the scan is linear and yields to the event loop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_INBOUND_HEADER_FIELDS,
  MAX_INBOUND_MIME_DEPTH,
  MAX_INBOUND_MIME_PARTS,
  checkMimeShape,
  isUnparsableMessageError,
} from '../../../src/modules/inbound/mime-shape';
import { parseInbound } from '../../../src/modules/inbound/parse-message';
import { compose } from '../../helpers/inbound-mail';

const HEAD = 'From: a@example.org\r\nTo: b@example.com\r\nSubject: s\r\nMIME-Version: 1.0\r\n';

/** A multipart/mixed message of `children` text parts (the message itself is one part more). */
function withChildren(children: number): Buffer {
  const body = Array.from({ length: children }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\n${i}\r\n`);
  return Buffer.from(`${HEAD}Content-Type: multipart/mixed; boundary="b"\r\n\r\n${body.join('')}--b--\r\n`);
}

function nested(depth: number): Buffer {
  let inner = 'Content-Type: text/plain\r\n\r\ninnermost\r\n';
  for (let level = depth; level > 0; level--) {
    inner = `Content-Type: multipart/mixed; boundary="l${level}"\r\n\r\n--l${level}\r\n${inner}--l${level}--\r\n`;
  }
  return Buffer.from(HEAD + inner);
}

function withFields(fields: number): Buffer {
  const extra = Array.from({ length: fields - 4 }, (_, i) => `X-F${i}: ${i}\r\n`).join('');
  return Buffer.from(`${HEAD}${extra}\r\nbody\r\n`);
}

async function reasonOf(raw: Buffer): Promise<string | null> {
  try {
    await parseInbound(raw);
    return null;
  } catch (err) {
    assert.ok(isUnparsableMessageError(err), `an UnparsableMessageError, got ${String(err)}`);
    return err.reason;
  }
}

void describe('inbound parse bounds', () => {
  void it('MIME parts: the bound parses, one more does not (mailparser agrees)', async () => {
    assert.equal(await reasonOf(withChildren(MAX_INBOUND_MIME_PARTS - 1)), null);
    assert.equal(await reasonOf(withChildren(MAX_INBOUND_MIME_PARTS)), 'more than 1000 MIME parts');
  });

  void it('nesting: 50 levels parse, 51 do not', async () => {
    const deepest = await parseInbound(nested(MAX_INBOUND_MIME_DEPTH));
    assert.match(deepest.text ?? '', /innermost/);
    assert.equal(
      await reasonOf(nested(MAX_INBOUND_MIME_DEPTH + 1)),
      'MIME structure nested deeper than 50 levels',
    );
  });

  void it('header fields: 1,000 parse, 1,001 do not', async () => {
    const ok = await parseInbound(withFields(MAX_INBOUND_HEADER_FIELDS));
    assert.equal(ok.headers.length, MAX_INBOUND_HEADER_FIELDS);
    assert.equal(
      await reasonOf(withFields(MAX_INBOUND_HEADER_FIELDS + 1)),
      'more than 1000 header fields in one part',
    );
  });

  void it('ordinary messages never trip the shape scan: alternatives, related images, attachments, an embedded message', async () => {
    const embedded = await compose({
      from: 'x@example.org',
      to: 'y@example.org',
      subject: 'inner',
      text: 'inner',
    });
    const raw = await compose({
      from: 'Alice <a@example.org>',
      to: 'b@example.com',
      subject: 'Everything',
      text: 'plain',
      html: '<p>html <img src="cid:logo@x"></p>',
      attachments: [
        { filename: 'logo.png', content: Buffer.from([0x89, 0x50]), cid: 'logo@x' },
        { filename: 'a.pdf', content: Buffer.alloc(200_000, 1) },
        { filename: 'fwd.eml', content: embedded, contentType: 'message/rfc822' },
      ],
      headers: { 'X-Long': 'x'.repeat(5_000) },
    });
    const parsed = await parseInbound(raw);
    assert.equal(parsed.subject, 'Everything');
    assert.ok(parsed.attachments.some((a) => a.filename === 'a.pdf'));
  });

  void it('a large embedded message: as an attachment (base64) its lines are body, inline its header is a header', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join('\r\n');
    const inner = `From: x@example.org\r\nSubject: inner\r\n\r\n${lines}\r\n`;
    const attached = Buffer.from(
      `${HEAD}Content-Type: multipart/mixed; boundary="o"\r\n\r\n--o\r\n` +
        'Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n' +
        `Content-Disposition: attachment; filename="fwd.eml"\r\n\r\n` +
        `${Buffer.from(inner).toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n--o--\r\n`,
    );
    assert.equal(await reasonOf(attached), null, '1,900 base64 lines are not header fields');
    const fields = Array.from({ length: MAX_INBOUND_HEADER_FIELDS + 1 }, (_, i) => `X-F${i}: ${i}`).join(
      '\r\n',
    );
    const inline = Buffer.from(
      `${HEAD}Content-Type: multipart/mixed; boundary="o"\r\n\r\n--o\r\n` +
        'Content-Type: message/rfc822\r\nContent-Disposition: inline\r\n\r\n' +
        `${fields}\r\n\r\nbody\r\n--o--\r\n`,
    );
    assert.equal(await reasonOf(inline), 'more than 1000 header fields in one part');
  });

  void it('the scan is linear and lets other work run: 10 MB of delimiter-like lines at 50 levels', async () => {
    let inner = '';
    for (let i = 0; i < MAX_INBOUND_MIME_DEPTH - 1; i++) {
      inner += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
    }
    const raw = Buffer.from(
      `${HEAD}Content-Type: multipart/mixed; boundary="top"\r\n\r\n--top\r\n${inner}` +
        `Content-Type: text/plain\r\n\r\n${'--not-a-boundary\r\n'.repeat(600_000)}`,
    );
    let ticks = 0;
    const tick = setInterval(() => ticks++, 0);
    const started = Date.now();
    try {
      await checkMimeShape(raw);
    } finally {
      clearInterval(tick);
    }
    assert.ok(Date.now() - started < 10_000, 'bounded time');
    assert.ok(ticks > 0, 'timers ran during the scan: it yields');
  });
});
