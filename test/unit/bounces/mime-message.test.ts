import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHeaderValue, parseContentType } from '../../../src/modules/bounces/header-fields';
import type { MimePart } from '../../../src/modules/bounces/mime-message';
import { leafParts, parseMessages } from '../../../src/modules/bounces/mime-message';
import { decodeBytes, decodeQuotedPrintable } from '../../../src/modules/bounces/transfer-decoding';

const crlf = (...lines: string[]): string => lines.join('\r\n');

/** A single message, read the way intake reads every report. */
function parseMessage(raw: string): MimePart {
  const messages = parseMessages(raw);
  assert.equal(messages.length, 1);
  return messages[0]!;
}

describe('MIME reading', () => {
  it('splits a multipart/report and decodes quoted-printable and base64 parts', () => {
    const raw = crlf(
      'From: MAILER-DAEMON@mx.example.org',
      'Content-Type: multipart/report; report-type=delivery-status;',
      '\tboundary="b1"',
      '',
      'preamble',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'caf=C3=A9 soft=',
      'break',
      '--b1',
      'Content-Type: message/delivery-status',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Final-Recipient: rfc822; a@example.org\r\n').toString('base64'),
      '--b1',
      'Content-Type: message/rfc822',
      '',
      'Message-ID: <orig@example.net>',
      'To: a@example.org',
      '',
      'body',
      '--b1--',
    );
    const root = parseMessage(raw);
    assert.equal(root.type, 'multipart/report');
    const parts = leafParts(root);
    assert.deepEqual(
      parts.map((p) => p.type),
      ['text/plain', 'message/delivery-status', 'message/rfc822'],
    );
    assert.equal(parts[0]?.text, 'café softbreak');
    assert.match(parts[1]?.text ?? '', /Final-Recipient: rfc822; a@example.org/);
    assert.equal(
      parts[2]?.children[0]?.headers.find((h) => h.name === 'message-id')?.value,
      '<orig@example.net>',
    );
  });

  it('reads text/rfc822-headers as an embedded header block', () => {
    const raw = crlf(
      'Content-Type: multipart/report; boundary=x',
      '',
      '--x',
      'Content-Type: text/rfc822-headers',
      '',
      'To: b@example.org',
      '--x--',
    );
    const part = leafParts(parseMessage(raw))[0];
    assert.equal(part?.children[0]?.headers[0]?.value, 'b@example.org');
  });

  it('reads a multipart whose boundary never occurs as plain text', () => {
    const root = parseMessage(crlf('Content-Type: multipart/mixed; boundary=zz', '', 'just text'));
    assert.equal(root.type, 'text/plain');
    assert.equal(root.text, 'just text');
  });

  it('tolerates a Content-Type without the ";" before its parameters', () => {
    assert.equal(parseContentType('text/plain\n   charset="iso-2022-jp"').type, 'text/plain');
    assert.equal(parseContentType('text/plain charset=utf-8').params.get('charset'), 'utf-8');
    assert.equal(parseContentType(null).type, 'text/plain');
  });

  it('decodes RFC 2047 encoded words and legacy charsets', () => {
    assert.equal(
      decodeHeaderValue('=?iso-2022-jp?B?UmV0dXJuZWQgbWFpbDogVXNlciB1bmtub3du?='),
      'Returned mail: User unknown',
    );
    assert.equal(decodeHeaderValue('=?utf-8?Q?Mail_d=C3=A9livr=C3=A9?= =?utf-8?Q?_ok?='), 'Mail délivré ok');
    const jis = Buffer.from([0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x42]).toString('latin1');
    assert.equal(decodeBytes(jis, 'iso-2022-jp'), 'あ');
    // Bytes that are not UTF-8 are kept as latin1 rather than lost.
    assert.equal(decodeBytes('\xe9t\xe9', null), 'été');
    assert.equal(decodeBytes('\xc3\xa9t\xc3\xa9', null), 'été');
    assert.equal(decodeQuotedPrintable('a=\r\nb=3D'), 'ab=');
  });

  it('splits an mbox only after a closed multipart message', () => {
    const one = crlf('Content-Type: multipart/report; boundary=q', '', '--q', '', 'first', '--q--');
    const two = crlf('From: MAILER-DAEMON@example.org', '', 'second');
    const mbox = `${one}\r\nFrom MAILER-DAEMON  Thu Apr 29 23:34:45 2015\r\n${two}`;
    assert.equal(parseMessages(mbox).length, 2);
    // Inside a plain body the same line is part of a quoted message.
    const quoted = `Subject: x\r\n\r\nsee below\r\nFrom MAILER-DAEMON  Thu Apr 29 23:34:45 2015\r\n${two}`;
    assert.equal(parseMessages(quoted).length, 1);
  });
});
