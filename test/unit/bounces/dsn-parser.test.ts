import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looksLikeDeliveryStatus, parseDeliveryStatus } from '../../../src/modules/bounces/dsn-parser';

const lines = (...l: string[]): string => l.join('\n');

describe('RFC 3464 delivery-status parser', () => {
  it('reads one record per recipient group (§2.3)', () => {
    const body = lines(
      'Reporting-MTA: dns; mx.example.net',
      'Arrival-Date: Thu, 29 Apr 2021 23:34:45 +0900',
      '',
      'Original-Recipient: rfc822;alias@example.org',
      'Final-Recipient: rfc822; a@example.org',
      'Action: failed',
      'Status: 5.1.1',
      'Remote-MTA: dns; mx.example.org',
      'Diagnostic-Code: smtp; 550 5.1.1 <a@example.org>... User',
      '    unknown',
      '',
      'Final-Recipient: RFC822; <b@Example.ORG>',
      'Action: delayed',
      'Status: 4.0.0',
      'Diagnostic-Code: smtp; 452 4.2.2 Mailbox full',
    );
    const [a, b] = parseDeliveryStatus(body);
    assert.deepEqual(
      { ...a },
      {
        recipient: 'a@example.org',
        status: '5.1.1',
        smtpCode: 550,
        action: 'failed',
        diagnostic: '550 5.1.1 <a@example.org>... User unknown',
        diagnosticType: 'SMTP',
        command: null,
        reason: null,
      },
    );
    // The class-only Status field gives way to the remote server's code (RFC 3463 §3.1).
    assert.equal(b?.recipient, 'b@example.org');
    assert.equal(b?.status, '4.2.2');
    assert.equal(b?.action, 'delayed');
  });

  it('reads groups that an MTA wrote without blank lines, and X-Postfix diagnostics as SMTP', () => {
    const body = lines(
      'Reporting-MTA: dns; mx.example.net',
      'Action: failed',
      'Final-Recipient: rfc822; a@example.org',
      'Status: 5.0.0',
      'Diagnostic-Code: X-Postfix; unknown user: "a"',
      'Final-Recipient: rfc822; b@example.org',
      'Status: 5.2.2',
    );
    const records = parseDeliveryStatus(body);
    assert.deepEqual(
      records.map((r) => [r.recipient, r.status, r.diagnosticType]),
      [
        ['a@example.org', '5.0.0', 'SMTP'],
        ['b@example.org', '5.2.2', null],
      ],
    );
  });

  it('reads fields pasted into a text part, quoted or not', () => {
    const text = lines('> Final-Recipient: rfc822; c@example.org', '> Action: failed', '> Status: 5.2.2');
    assert.equal(looksLikeDeliveryStatus(text), true);
    assert.equal(parseDeliveryStatus(text)[0]?.status, '5.2.2');
    assert.equal(looksLikeDeliveryStatus('Dear user, your mail failed.'), false);
  });

  it('finds the SMTP command a Diagnostic-Code names', () => {
    const body = lines(
      'Final-Recipient: rfc822; a@example.org',
      'Action: failed',
      'Status: 5.0.0',
      'Diagnostic-Code: smtp; 550 denied (in reply to RCPT TO command)',
    );
    assert.equal(parseDeliveryStatus(body)[0]?.command, 'RCPT');
  });
});
