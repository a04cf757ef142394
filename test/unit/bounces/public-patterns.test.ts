import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryRecord } from '../../../src/mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../../src/mail/reply-classifier/bounce-result';
import { decideReason, kindOfReason } from '../../../src/mail/reply-classifier/classify-reason';
import { findEnhancedStatus, findReplyCode } from '../../../src/mail/reply-classifier/enhanced-status';
import { PUBLIC_PATTERNS } from '../../../src/mail/reply-classifier/public-patterns';
import { PUBLIC_SOFT_PATTERNS } from '../../../src/mail/reply-classifier/public-soft-patterns';
import { findSmtpCommand } from '../../../src/mail/reply-classifier/smtp-command';
import { STATUS_PATTERNS, withRowsDisabled } from '../../../src/mail/reply-classifier/status-patterns';

function read(fields: Partial<DeliveryRecord>): [string, string] {
  const r = { ...emptyRecord('rcpt@example.org'), diagnosticType: 'SMTP', action: 'failed', ...fields };
  const reason = decideReason(r);
  return [reason, kindOfReason(reason, r)];
}

/** A record as a report of `example` would give it, at the dialogue step where MTAs say it. */
function readExample(example: string, reason: string): [string, string] {
  const command = findSmtpCommand(example) ?? (reason === 'filtered' ? 'DATA' : 'RCPT');
  return read({
    diagnostic: example,
    status: findEnhancedStatus(example),
    smtpCode: findReplyCode(example),
    command,
  });
}

/** Every row from a public source, wherever it lives (mta-own-patterns.ts has re-sourced rows). */
const PUBLIC_ROWS = STATUS_PATTERNS.filter((r) => r.source !== 'corpus');
const CORPUS_ROWS = new Set(STATUS_PATTERNS.filter((r) => r.source === 'corpus'));

describe('rows from public sources (issue 22 item 4)', () => {
  it('every row of the public tables names a public source', () => {
    for (const r of [...PUBLIC_PATTERNS, ...PUBLIC_SOFT_PATTERNS])
      assert.notEqual(r.source, 'corpus', r.example);
  });

  // The k-fold measurement keeps these rows in every fold; they must stand without any row
  // learned from the corpus.
  for (const [i, r] of PUBLIC_ROWS.entries()) {
    it(`${r.source} row ${i} reads its example as ${r.reason} with every corpus row off`, () => {
      withRowsDisabled(CORPUS_ROWS, () => {
        assert.equal(decideReason(readRecord(r.example, r.reason)), r.reason);
      });
    });
  }

  it('reads common unknown-user and unknown-domain wordings as hard', () => {
    withRowsDisabled(CORPUS_ROWS, () => {
      for (const text of [
        '550 5.1.1 <kijitora@example.jp>: Recipient address rejected: User unknown in local recipient table',
        '550 User not found',
        '550 No such user here',
        '553 Invalid recipient kijitora@example.org (Mode: normal)',
        '550 Requested action not taken: mailbox unavailable',
        '550 5.1.1 The email account that you tried to reach does not exist.',
      ])
        assert.equal(readExample(text, 'userunknown')[1], 'hard', text);
      for (const text of [
        '554 The mail could not be delivered to the recipient because the domain is not reachable.',
        'Unrouteable address',
        '550 Host unknown',
        'DNS lookup failure: host cx.example.org not found',
      ])
        assert.equal(readExample(text, 'hostunknown')[1], 'hard', text);
    });
  });
});

describe('a throttling or policy reply is never a bad address', () => {
  it('a 4.7.x reply quoting an unknown user is soft', () => {
    const text = '450 4.7.1 <kijitora@example.jp>: Recipient address rejected: User unknown, try again later';
    assert.equal(readExample(text, 'userunknown')[1], 'soft');
  });

  it('a temporary unknown-user reply that asks us to slow down is soft', () => {
    const text =
      '452 4.1.1 <kijitora@example.jp>: Recipient address rejected: Unknown user; rate limit exceeded';
    assert.equal(readExample(text, 'userunknown')[1], 'soft');
  });

  it('a temporary unknown-host reply is soft, the permanent one hard', () => {
    assert.equal(readExample('451 4.1.2 Host unknown, try again later', 'hostunknown')[1], 'soft');
    assert.equal(readExample('550 5.1.2 Host unknown', 'hostunknown')[1], 'hard');
  });

  it('a Sisimai TooManyConn wording is soft whatever the code', () => {
    assert.deepEqual(readExample('550 5.7.1 Too many connections from your host.', 'toomanyconn')[1], 'soft');
  });
});

describe('the enhanced status code decides where it is specific (RFC 3463)', () => {
  const cases: [string, string, number, string, string][] = [
    ['5.1.1', 'no wording at all', 550, 'userunknown', 'hard'],
    ['5.1.2', 'no wording at all', 550, 'hostunknown', 'hard'],
    ['5.1.10', 'Recipient address has null MX', 556, 'notaccept', 'hard'],
    ['5.4.4', 'Unable to route', 550, 'hostunknown', 'hard'],
    ['4.4.4', 'Unable to route', 451, 'networkerror', 'soft'],
    ['5.2.2', 'User unknown', 552, 'mailboxfull', 'soft'],
    ['5.7.1', 'Message rejected as spam', 554, 'spamdetected', 'soft'],
    ['5.7.13', 'Unknown user', 550, 'suspend', 'soft'],
  ];
  for (const [status, words, code, reason, kind] of cases) {
    it(`${code} ${status} "${words}" → ${reason} (${kind})`, () => {
      assert.deepEqual(
        read({ status, smtpCode: code, diagnostic: `${code} ${status} ${words}`, command: 'RCPT' }),
        [reason, kind],
      );
    });
  }
});

function readRecord(example: string, reason: string): DeliveryRecord {
  const command = findSmtpCommand(example) ?? (reason === 'filtered' ? 'DATA' : 'RCPT');
  return {
    ...emptyRecord('rcpt@example.org'),
    diagnosticType: 'SMTP',
    action: 'failed',
    diagnostic: example,
    status: findEnhancedStatus(example),
    smtpCode: findReplyCode(example),
    command,
  };
}

describe('specific routing codes before the wording (RFC 3463 X.4.4, RFC 7505 X.1.10)', () => {
  it('5.4.4 with a DNS-failure wording is an unroutable domain (hard), in SMTP or not', () => {
    const diagnostic =
      'Name service error for name=example.org type=MX: Malformed or unexpected name server reply';
    assert.deepEqual(read({ status: '5.4.4', diagnosticType: 'X-OUTBOUND-MAIL-RELAY', diagnostic }), [
      'hostunknown',
      'hard',
    ]);
    assert.deepEqual(read({ status: '5.4.4', smtpCode: 554, diagnostic: `554 5.4.4 ${diagnostic}` }), [
      'hostunknown',
      'hard',
    ]);
  });

  it("5.7.27 is the sender's null MX (RFC 7505 §4.2): our domain, never the recipient's (soft)", () => {
    const diagnostic = '550 5.7.27 Sender address has null MX';
    assert.deepEqual(read({ status: '5.7.27', smtpCode: 550, diagnostic, command: 'MAIL' }), [
      'rejected',
      'soft',
    ]);
    assert.deepEqual(read({ status: '5.7.27', smtpCode: 550, diagnostic, command: 'RCPT' }), [
      'rejected',
      'soft',
    ]);
    assert.equal(read({ diagnostic, command: 'MAIL' })[1], 'soft');
  });

  it('4.4.4 with the same wording stays a network error (soft)', () => {
    const diagnostic = '451 4.4.4 Malformed or unexpected name server reply';
    assert.equal(read({ status: '4.4.4', smtpCode: 451, diagnostic })[1], 'soft');
  });
});

describe('Yahoo\'s "This user doesn\'t have a ... account"', () => {
  const words = "This user doesn't have a example.co.jp account (kijitora@example.co.jp) [-9]";

  it('after a 554 is an unknown user wherever it came (ZoneMTA)', () => {
    assert.deepEqual(
      read({ diagnostic: `554 delivery error: dd ${words}`, smtpCode: 554, command: 'DATA' }),
      ['userunknown', 'hard'],
    );
  });

  it('after DATA without a reply code is a per-user filter, as any unknown-user wording (Sisimai)', () => {
    assert.deepEqual(read({ diagnostic: words, command: 'DATA' }), ['filtered', 'soft']);
  });
});
