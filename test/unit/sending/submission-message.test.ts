import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cleanSubmission,
  headerValue,
  parseSubmission,
  recipientType,
} from '../../../src/modules/sending/submission-message';

const RAW = Buffer.from(
  [
    'Return-Path: <bounce@evil.test>',
    'DKIM-Signature: v=1; a=rsa-sha256; d=evil.test;',
    '  b=abc',
    'From: App <noreply@apps.example.com>',
    'To: "User" <user@dest.test>, other@dest.test',
    'Cc: watcher@dest.test',
    'Bcc: hidden@dest.test',
    'Subject: Hello',
    '  folded',
    'X-App: gitea',
    '',
    'body line',
    '',
  ].join('\n'),
);

describe('submitted message', () => {
  it('parses headers with folding', () => {
    const parsed = parseSubmission(RAW);
    assert.equal(headerValue(parsed.fields, 'subject'), 'Hello folded');
    assert.equal(parsed.body.toString(), 'body line\n');
  });

  it('types envelope recipients by the To/Cc headers; the rest is bcc', () => {
    const { fields } = parseSubmission(RAW);
    assert.equal(recipientType(fields, 'USER@dest.test'), 'to');
    assert.equal(recipientType(fields, 'other@dest.test'), 'to');
    assert.equal(recipientType(fields, 'watcher@dest.test'), 'cc');
    assert.equal(recipientType(fields, 'hidden@dest.test'), 'bcc');
  });

  it('removes DKIM-Signature, Return-Path and Bcc, adds a Message-ID when asked, uses CRLF', () => {
    const out = cleanSubmission(parseSubmission(RAW), '<id@apps.example.com>').toString();
    assert.doesNotMatch(out, /^(dkim-signature|return-path|bcc):/im);
    assert.doesNotMatch(out, /^\s+b=abc/m);
    assert.match(out, /^X-App: gitea\r$/m);
    assert.match(out, /^Subject: Hello\r\n {2}folded\r$/m);
    assert.match(out, /^Message-ID: <id@apps\.example\.com>\r\n\r\nbody line\r\n$/m);
  });

  it('keeps an existing Message-ID', () => {
    const raw = Buffer.from('From: a@b.test\r\nMessage-ID: <mine@b.test>\r\n\r\nx\r\n');
    const out = cleanSubmission(parseSubmission(raw), undefined).toString();
    assert.equal(out, 'From: a@b.test\r\nMessage-ID: <mine@b.test>\r\n\r\nx\r\n');
  });
});
