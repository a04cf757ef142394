import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySmtpRejection } from '../../../src/mail/reply-classifier/smtp-rejection';

describe('classifySmtpRejection', () => {
  const cases: [number, string | null, string, 'hard' | 'soft'][] = [
    [550, '5.1.1', 'No such user here', 'hard'],
    [
      550,
      '5.1.1',
      '<x@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
      'hard',
    ],
    [554, '5.7.1', 'Message rejected as spam', 'soft'],
    [552, '5.2.2', 'Mailbox full', 'soft'],
    [550, '5.7.1', 'Client host [192.0.2.1] blocked using zen.spamhaus.org', 'soft'],
  ];
  for (const [code, status, text, kind] of cases) {
    it(`${code} ${status ?? ''} ${text} → ${kind}`, () => {
      assert.equal(
        classifySmtpRejection({
          recipient: 'x@example.org',
          smtpCode: code,
          enhancedStatus: status,
          response: text,
        }).kind,
        kind,
      );
    });
  }
});
