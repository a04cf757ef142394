import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findEnhancedStatus,
  findReplyCode,
  isClassOnly,
  preferStatus,
  reasonOfStatus,
} from '../../../src/mail/reply-classifier/enhanced-status';

describe('findEnhancedStatus (RFC 3463 §2)', () => {
  it('reads the code that follows the reply code', () => {
    assert.equal(findEnhancedStatus('550 5.1.1 <a@example.org>... User unknown'), '5.1.1');
    assert.equal(
      findEnhancedStatus("5.1.0 - Unknown address error 550-'5.7.1 <x@example.org>... Access denied"),
      '5.7.1',
    );
    assert.equal(findEnhancedStatus('550-5.7.26 Unauthenticated email'), '5.7.26');
  });

  it('falls back to the first code anywhere, and accepts qmail-style (#5.1.1)', () => {
    assert.equal(findEnhancedStatus('Sorry, no mailbox here by that name. (#5.1.1)'), '5.1.1');
    assert.equal(findEnhancedStatus('Status: 4.4.7'), '4.4.7');
  });

  it('skips IP addresses, versions and subjects beyond 7', () => {
    assert.equal(findEnhancedStatus('host 192.0.2.1 said: no'), null);
    assert.equal(findEnhancedStatus('Exim 4.72 at 5.1.2.3'), null);
    assert.equal(findEnhancedStatus('5.9.1 is not a status'), null);
  });
});

describe('findReplyCode (RFC 5321 §4.2)', () => {
  it('finds reply codes after the usual introductions', () => {
    assert.equal(findReplyCode('host mx said: 550 5.1.1 unknown'), 550);
    assert.equal(findReplyCode('ERROR_CODE :550, ERROR_CODE :5.2.1'), 550);
    assert.equal(findReplyCode('<<< 452-4.2.2 over quota'), 452);
  });

  it('ignores sizes and durations', () => {
    assert.equal(findReplyCode('message of 552 bytes delayed'), null);
    assert.equal(findReplyCode('no code here'), null);
  });
});

describe('preferStatus', () => {
  it('prefers the remote code over a class-only or vague Status field', () => {
    assert.equal(preferStatus('5.0.0', '5.1.1', 550), '5.1.1');
    assert.equal(preferStatus('4.4.7', '4.7.1', 450), '4.7.1');
    assert.equal(preferStatus('5.5.0', '5.2.2', 552), '5.2.2');
  });

  it('follows the reply code when the classes disagree', () => {
    assert.equal(preferStatus('4.5.0', '5.5.0', 550), '5.5.0');
    assert.equal(preferStatus('5.0.0', '4.2.2', 550), '5.0.0');
  });

  it('keeps a specific Status field', () => {
    assert.equal(preferStatus('5.2.2', '5.0.0', 552), '5.2.2');
    assert.equal(preferStatus('5.1.1', '5.5.0', 550), '5.1.1');
    assert.equal(preferStatus(null, '5.1.1', 550), '5.1.1');
    assert.equal(preferStatus('5.1.1', null, null), '5.1.1');
  });
});

describe('reasonOfStatus', () => {
  it('maps detail codes whose meaning is fixed', () => {
    assert.equal(reasonOfStatus('5.1.1'), 'userunknown');
    assert.equal(reasonOfStatus('5.1.2'), 'hostunknown');
    assert.equal(reasonOfStatus('5.1.10'), 'notaccept');
    assert.equal(reasonOfStatus('5.2.2'), 'mailboxfull');
    assert.equal(reasonOfStatus('4.4.7'), 'expired');
    assert.equal(reasonOfStatus('5.7.1'), 'securityerror');
    assert.equal(reasonOfStatus('5.7.26'), 'authfailure');
  });

  it('says nothing about class-only or unregistered codes', () => {
    assert.equal(reasonOfStatus('5.0.0'), null);
    assert.equal(reasonOfStatus('5.7.606'), null);
    assert.equal(reasonOfStatus(null), null);
    assert.equal(isClassOnly('4.0.0'), true);
    assert.equal(isClassOnly('4.4.7'), false);
  });
});
