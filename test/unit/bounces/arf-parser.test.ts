import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyReport } from '../../../src/modules/bounces/classify-report';

const crlf = (...l: string[]): string => l.join('\r\n');

function arf(feedbackFields: string[], originalTo: string): string {
  return crlf(
    'From: fbl@isp.example',
    'To: abuse@sender.example',
    'Subject: Abuse report',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="arf"',
    '',
    '--arf',
    'Content-Type: text/plain',
    '',
    'This is an email abuse report.',
    '--arf',
    'Content-Type: message/feedback-report',
    '',
    ...feedbackFields,
    '--arf',
    'Content-Type: message/rfc822',
    '',
    'From: news@sender.example',
    `To: ${originalTo}`,
    'Message-ID: <campaign-1@sender.example>',
    'Subject: Offer',
    '',
    'Hello',
    '--arf--',
  );
}

describe('RFC 5965 feedback reports', () => {
  it('reads one complaint per Original-Rcpt-To (§3.2)', () => {
    const results = classifyReport(
      arf(
        [
          'Feedback-Type: abuse',
          'User-Agent: FBL/1.0',
          'Version: 1',
          'Original-Rcpt-To: a@isp.example',
          'Original-Rcpt-To: b@isp.example',
        ],
        'x@isp.example',
      ),
    );
    assert.deepEqual(
      results.map((r) => [r.recipient, r.kind, r.action, r.reason, r.diagnostic]),
      [
        ['a@isp.example', 'complaint', 'complaint', 'feedback', 'abuse'],
        ['b@isp.example', 'complaint', 'complaint', 'feedback', 'abuse'],
      ],
    );
  });

  it('takes the recipient from the returned message when Original-Rcpt-To is absent', () => {
    const results = classifyReport(arf(['Feedback-Type: fraud', 'Version: 1'], 'Someone <c@isp.example>'));
    assert.deepEqual(results, [
      {
        recipient: 'c@isp.example',
        status: null,
        smtpCode: null,
        action: 'complaint',
        diagnostic: 'fraud',
        kind: 'complaint',
        reason: 'feedback',
      },
    ]);
  });
});
