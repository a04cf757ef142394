import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyReport, readReport } from '../../../src/modules/bounces/classify-report';

const crlf = (...l: string[]): string => l.join('\r\n');

function dsn(perRecipient: string[], text: string[] = ['Delivery failed.'], original: string[] = []): string {
  return crlf(
    'From: Mail Delivery System <MAILER-DAEMON@mx.ours.example>',
    'To: bounce+42@bounce.ours.example',
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="r"',
    '',
    '--r',
    'Content-Type: text/plain',
    '',
    ...text,
    '--r',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.ours.example',
    '',
    ...perRecipient,
    '--r',
    'Content-Type: text/rfc822-headers',
    '',
    'From: news@ours.example',
    'To: a@far.example, b@far.example',
    'Message-ID: <msg-7@ours.example>',
    ...original,
    '',
    '--r--',
  );
}

describe('classifyReport', () => {
  it('reads an RFC 3464 report, one result per recipient, with the original Message-ID', () => {
    const raw = dsn([
      'Final-Recipient: rfc822; a@far.example',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <a@far.example>: Recipient address rejected: User unknown',
      '',
      'Final-Recipient: rfc822; b@far.example',
      'Action: delayed',
      'Status: 4.4.1',
      'Diagnostic-Code: smtp; 421 4.4.1 connection timed out',
    ]);
    const reading = readReport(raw);
    assert.deepEqual(reading.results, [
      {
        recipient: 'a@far.example',
        status: '5.1.1',
        smtpCode: 550,
        action: 'failed',
        diagnostic: '550 5.1.1 <a@far.example>: Recipient address rejected: User unknown',
        kind: 'hard',
        reason: 'userunknown',
      },
      {
        recipient: 'b@far.example',
        status: '4.4.1',
        smtpCode: 421,
        action: 'delayed',
        diagnostic: '421 4.4.1 connection timed out',
        kind: 'soft',
        reason: 'expired',
      },
    ]);
    assert.equal(reading.originalMessageId, '<msg-7@ours.example>');
    assert.deepEqual(reading.originalRecipients, ['a@far.example', 'b@far.example']);
  });

  it('takes the SMTP command from the human-readable part when the DSN fields lack it', () => {
    const raw = dsn(
      [
        'Final-Recipient: rfc822; a@far.example',
        'Action: failed',
        'Status: 5.0.0',
        'Diagnostic-Code: smtp; 550 <a@far.example>: User unknown',
      ],
      [
        '<a@far.example>: host mx.far.example said: 550 <a@far.example>: User unknown (in reply to',
        '    RCPT TO command)',
      ],
    );
    assert.deepEqual(
      classifyReport(raw).map((r) => [r.kind, r.reason]),
      [['hard', 'userunknown']],
    );
  });

  it('reads a delivery report of success as delivered (RFC 3464 Action: delivered)', () => {
    const raw = dsn([
      'Final-Recipient: rfc822; a@far.example',
      'Action: delivered',
      'Status: 2.0.0',
      'Diagnostic-Code: smtp; 250 2.0.0 OK',
    ]);
    assert.deepEqual(
      classifyReport(raw).map((r) => [r.recipient, r.kind, r.action]),
      [['a@far.example', 'delivered', 'delivered']],
    );
  });

  it('does not depend on our own addresses and accepts strings as well as buffers', () => {
    const raw = dsn(['Final-Recipient: rfc822; a@far.example', 'Action: failed', 'Status: 5.2.2']);
    assert.deepEqual(classifyReport(Buffer.from(raw)), classifyReport(raw));
    assert.equal(classifyReport(raw)[0]?.recipient, 'a@far.example');
  });

  it('returns nothing for a message that is not a report', () => {
    assert.deepEqual(
      classifyReport(
        crlf('From: friend@far.example', 'To: news@ours.example', 'Subject: Lunch?', '', 'See you at noon.'),
      ),
      [],
    );
    assert.deepEqual(classifyReport(''), []);
  });

  it('reads a report forwarded as an attachment', () => {
    const inner = dsn(['Final-Recipient: rfc822; a@far.example', 'Action: failed', 'Status: 5.1.1']);
    const raw = crlf(
      'From: MAILER-DAEMON@relay.ours.example',
      'To: postmaster@ours.example',
      'Subject: Returned mail',
      'Content-Type: multipart/mixed; boundary="fw"',
      '',
      '--fw',
      'Content-Type: text/plain',
      '',
      '----- The following addresses had permanent delivery errors -----',
      '--fw',
      'Content-Type: message/rfc822',
      '',
      inner,
      '--fw--',
    );
    assert.deepEqual(
      classifyReport(raw).map((r) => [r.recipient, r.kind]),
      [['a@far.example', 'hard']],
    );
  });

  it('stays fast and total on hostile input', () => {
    const started = Date.now();
    const noise = Buffer.alloc(200_000, 0x61);
    assert.deepEqual(classifyReport(noise), []);
    const list = [
      'From: MAILER-DAEMON@mx.ours.example',
      'Subject: Undelivered Mail',
      '',
      'x@far.example '.repeat(20_000),
    ].join('\n');
    assert.equal(classifyReport(list).length, 1);
    const many = ['From: MAILER-DAEMON@mx.ours.example', 'Subject: Undelivered Mail', '']
      .concat(Array.from({ length: 3000 }, (_, i) => `<u${i}@far.example>: 550 5.1.1 user unknown`))
      .join('\n');
    assert.equal(
      classifyReport(many).length,
      1000,
      'a plain-text report is read for at most 1000 recipients',
    );
    assert.ok(Date.now() - started < 3000);
  });
});
