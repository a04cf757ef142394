import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planEffect, reportReason } from '../../../src/modules/bounces/bounce-effects';

describe('planEffect', () => {
  const cases: [string, Parameters<typeof planEffect>[0], ReturnType<typeof planEffect>][] = [
    [
      'hard: bounced and suppressed',
      { kind: 'hard', status: '5.1.1', smtpCode: 550 },
      { transition: 'bounced', eventType: null, suppression: 'hard_bounce', logEvent: 'hard_bounce' },
    ],
    [
      'soft, permanent: bounced, not suppressed',
      { kind: 'soft', status: '5.2.2', smtpCode: 552 },
      { transition: 'bounced', eventType: null, suppression: null, logEvent: 'soft_bounce' },
    ],
    [
      'soft, transient: only recorded',
      { kind: 'soft', status: '4.2.2', smtpCode: 452 },
      { transition: null, eventType: 'soft_bounce', suppression: null, logEvent: 'soft_bounce' },
    ],
    [
      'soft without any code: only recorded',
      { kind: 'soft', status: null, smtpCode: null },
      { transition: null, eventType: 'soft_bounce', suppression: null, logEvent: 'soft_bounce' },
    ],
    [
      'complaint: complained and suppressed',
      { kind: 'complaint', status: null, smtpCode: null },
      { transition: 'complained', eventType: null, suppression: 'complaint', logEvent: 'complaint' },
    ],
    [
      'auto-reply: only recorded',
      { kind: 'auto_reply', status: null, smtpCode: null },
      { transition: null, eventType: 'auto_reply', suppression: null, logEvent: 'auto_reply' },
    ],
    [
      'delivery notice: only recorded',
      { kind: 'delivered', status: '2.0.0', smtpCode: 250 },
      { transition: null, eventType: 'delivery_report', suppression: null, logEvent: 'delivery_report' },
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(planEffect(input), expected));
  }
});

describe('reportReason', () => {
  it('starts with the reply code and the status, as the MTA reports read', () => {
    assert.equal(
      reportReason({ smtpCode: 550, status: '5.1.1', diagnostic: 'User unknown', reason: 'userunknown' }),
      '550 5.1.1 User unknown',
    );
  });

  it('does not repeat what the diagnostic already says', () => {
    assert.equal(
      reportReason({
        smtpCode: 550,
        status: '5.1.1',
        diagnostic: '550 5.1.1  no\n such user',
        reason: 'userunknown',
      }),
      '550 5.1.1 no such user',
    );
  });

  it("falls back to the classifier's reason when the report gives no text", () => {
    assert.equal(
      reportReason({ smtpCode: null, status: null, diagnostic: null, reason: 'feedback' }),
      'feedback',
    );
    assert.equal(
      reportReason({ smtpCode: null, status: '5.2.2', diagnostic: '', reason: 'mailboxfull' }),
      '5.2.2 mailboxfull',
    );
  });
});
