import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryRecord } from '../../../src/mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../../src/mail/reply-classifier/bounce-result';
import { decideReason, kindOfReason } from '../../../src/mail/reply-classifier/classify-reason';

function rec(fields: Partial<DeliveryRecord>): DeliveryRecord {
  return { ...emptyRecord('rcpt@example.org'), diagnosticType: 'SMTP', ...fields };
}

function read(fields: Partial<DeliveryRecord>): [string, string] {
  const r = rec(fields);
  const reason = decideReason(r);
  return [reason, kindOfReason(reason, r)];
}

describe('decideReason and kindOfReason', () => {
  it('reads X.1.1 as a bad address (hard)', () => {
    assert.deepEqual(
      read({ status: '5.1.1', smtpCode: 550, diagnostic: '550 5.1.1 <a@b.example>... User unknown' }),
      ['userunknown', 'hard'],
    );
  });

  it('lets the reason decide, not the class digit: 5.2.2 and 5.7.1-spam are soft', () => {
    assert.deepEqual(read({ status: '5.2.2', smtpCode: 552, diagnostic: '552 5.2.2 Mailbox full' }), [
      'mailboxfull',
      'soft',
    ]);
    assert.deepEqual(
      read({
        status: '5.7.1',
        smtpCode: 550,
        command: 'DATA',
        diagnostic: '550 5.7.1 Message rejected as spam',
      }),
      ['spamdetected', 'soft'],
    );
  });

  it('believes a mailbox-full wording over a loosely used 5.1.1', () => {
    assert.deepEqual(
      read({
        status: '5.1.1',
        smtpCode: 552,
        diagnostic: '552 sorry, mailbox a@b.example is over quota (#5.1.1)',
      }),
      ['mailboxfull', 'soft'],
    );
  });

  it('takes an unknown-user wording as a bad address only at RCPT TO', () => {
    assert.deepEqual(
      read({ smtpCode: 550, command: 'RCPT', diagnostic: '550 <a@b.example>: User unknown' }),
      ['userunknown', 'hard'],
    );
    // After DATA the server already accepted the address: a per-user filter answered.
    assert.deepEqual(
      read({ smtpCode: 550, command: 'DATA', diagnostic: '550 <a@b.example>: User unknown' }),
      ['filtered', 'soft'],
    );
  });

  it('reads a refusal at MAIL FROM as a refused sender', () => {
    assert.deepEqual(
      read({
        status: '5.1.8',
        smtpCode: 501,
        command: 'MAIL',
        diagnostic: '501 5.1.8 Sender address rejected',
      }),
      ['rejected', 'soft'],
    );
  });

  it('reads a refusal at connection or greeting time as the host being blocked', () => {
    assert.deepEqual(
      read({ smtpCode: 554, command: 'CONN', diagnostic: '554 go away, you are not welcome' }),
      ['blocked', 'soft'],
    );
    assert.deepEqual(read({ smtpCode: 550, command: 'EHLO', diagnostic: '550 5.7.1 no PTR record found' }), [
      'requireptr',
      'soft',
    ]);
  });

  it('treats a null MX as hard when permanent and soft when temporary (RFC 7505)', () => {
    assert.deepEqual(
      read({ status: '5.1.10', smtpCode: 556, diagnostic: '556 5.1.10 domain does not accept mail' }),
      ['notaccept', 'hard'],
    );
    assert.deepEqual(
      read({
        status: '4.0.0',
        diagnostic: "The domain b.example doesn't receive email according to the administrator",
      }),
      ['notaccept', 'soft'],
    );
  });

  it('does not call an unknown host hard while the reporter is still retrying', () => {
    assert.deepEqual(
      read({ status: '4.0.0', diagnostic: 'DNS lookup failure: host mx.b.example not found' }),
      ['networkerror', 'soft'],
    );
    assert.deepEqual(read({ diagnostic: 'DNS lookup failure: host mx.b.example not found' }), [
      'hostunknown',
      'hard',
    ]);
  });

  it('lets a reporter’s own directory wording settle the reason', () => {
    assert.deepEqual(read({ diagnostic: 'User x (a@b.example) not listed in Domino Directory' }), [
      'userunknown',
      'hard',
    ]);
    assert.deepEqual(read({ status: '4.4.7', diagnostic: '550 4.4.7 QUEUE.Expired; message expired' }), [
      'expired',
      'soft',
    ]);
  });

  it('reads delays, successes, complaints and auto-replies', () => {
    assert.deepEqual(read({ action: 'delayed', status: '4.0.0' }), ['expired', 'soft']);
    assert.deepEqual(read({ action: 'delivered', status: '2.0.0' }), ['delivered', 'delivered']);
    assert.deepEqual(read({ status: '2.1.5', smtpCode: 250 }), ['delivered', 'delivered']);
    assert.deepEqual(read({ reason: 'feedback', action: 'complaint' }), ['feedback', 'complaint']);
    assert.deepEqual(read({ reason: 'vacation' }), ['vacation', 'auto_reply']);
  });

  it('falls back to onhold with text it cannot place, and undefined with none', () => {
    assert.deepEqual(read({ diagnostic: 'something odd happened' }), ['onhold', 'soft']);
    assert.deepEqual(read({}), ['undefined', 'soft']);
    assert.deepEqual(read({ diagnosticType: 'X-UNIX', diagnostic: 'exit 75' }), ['mailererror', 'soft']);
  });
});
