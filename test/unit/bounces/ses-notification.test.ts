import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyReport } from '../../../src/modules/bounces/classify-report';

function sns(event: unknown): string {
  // Sendmail wraps long lines with "!\n " on the way; the reader must undo it.
  const json = JSON.stringify(event).replace(/(.{300})/g, '$1!\n ');
  return [
    'From: no-reply@sns.amazonaws.com',
    'Subject: AWS Notification Message',
    'Content-Type: text/plain; charset=UTF-8',
    '',
    json,
    '',
    '--',
    'unsubscribe link',
  ].join('\n');
}

describe('Amazon SES notifications', () => {
  it('reads a bounce per bounced recipient', () => {
    const results = classifyReport(
      sns({
        notificationType: 'Bounce',
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [
            {
              emailAddress: 'a@example.org',
              action: 'failed',
              status: '5.1.1',
              diagnosticCode: 'smtp; 550 5.1.1 user unknown',
            },
            {
              emailAddress: 'b@example.org',
              action: 'failed',
              status: '5.2.2',
              diagnosticCode: 'smtp; 552 5.2.2 mailbox full',
            },
          ],
        },
        mail: { messageId: 'x', destination: ['a@example.org', 'b@example.org'], padding: 'p'.repeat(400) },
      }),
    );
    assert.deepEqual(
      results.map((r) => [r.recipient, r.status, r.smtpCode, r.kind]),
      [
        ['a@example.org', '5.1.1', 550, 'hard'],
        ['b@example.org', '5.2.2', 552, 'soft'],
      ],
    );
  });

  it('reads complaints and deliveries', () => {
    const complaint = classifyReport(
      sns({
        notificationType: 'Complaint',
        complaint: {
          complainedRecipients: [{ emailAddress: 'c@example.org' }],
          complaintFeedbackType: 'abuse',
        },
      }),
    );
    assert.deepEqual(
      complaint.map((r) => [r.recipient, r.kind]),
      [['c@example.org', 'complaint']],
    );
    const delivery = classifyReport(
      sns({
        notificationType: 'Delivery',
        delivery: { recipients: ['d@example.org'], smtpResponse: '250 2.6.0 Message received' },
      }),
    );
    assert.deepEqual(
      delivery.map((r) => [r.recipient, r.status, r.kind]),
      [['d@example.org', '2.6.0', 'delivered']],
    );
  });
});
