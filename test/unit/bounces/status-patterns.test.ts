import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceReason, DeliveryRecord } from '../../../src/mail/reply-classifier/bounce-result';
import { emptyRecord } from '../../../src/mail/reply-classifier/bounce-result';
import { decideReason } from '../../../src/mail/reply-classifier/classify-reason';
import { findEnhancedStatus, findReplyCode } from '../../../src/mail/reply-classifier/enhanced-status';
import { findSmtpCommand } from '../../../src/mail/reply-classifier/smtp-command';
import { normaliseDiagnostic, STATUS_PATTERNS } from '../../../src/mail/reply-classifier/status-patterns';

/**
 * Where in the dialogue each wording is typically returned. Unknown-user wordings are about the
 * address at RCPT TO; filter, spam and virus wordings come after DATA; sender refusals at MAIL.
 */
const DIALOGUE: Partial<Record<BounceReason, Partial<DeliveryRecord>>> = {
  userunknown: { command: 'RCPT' },
  filtered: { command: 'DATA' },
  rejected: { command: 'MAIL' },
  spamdetected: { command: 'DATA', status: '5.7.1' },
  virusdetected: { command: 'DATA' },
};

function recordFor(reason: BounceReason, example: string): DeliveryRecord {
  const rec = emptyRecord('rcpt@example.org');
  rec.diagnostic = example;
  rec.status = findEnhancedStatus(example);
  rec.smtpCode = findReplyCode(example);
  rec.command = findSmtpCommand(example);
  const context = DIALOGUE[reason] ?? {};
  return { ...rec, ...context, status: context.status ?? rec.status };
}

describe('status pattern table', () => {
  for (const [i, row] of STATUS_PATTERNS.entries()) {
    it(`row ${i}: ${row.reason} ← "${row.example}"`, () => {
      assert.ok(row.pattern.test(normaliseDiagnostic(row.example)), 'the row matches its own example');
      assert.equal(decideReason(recordFor(row.reason, row.example)), row.reason);
    });
  }

  it('is written against lower-cased text', () => {
    for (const row of STATUS_PATTERNS) {
      assert.equal(row.pattern.flags.includes('i'), false, `${row.pattern.source} needs no i flag`);
      assert.equal(/[A-Z]/.test(row.pattern.source.replace(/\\[A-Z]/g, '')), false, row.pattern.source);
    }
  });
});
