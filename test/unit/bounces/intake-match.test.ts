import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceResult } from '../../../src/modules/bounces/bounce-result';
import { readReport } from '../../../src/modules/bounces/classify-report';
import { isPermanent, mapResults, messageCandidates } from '../../../src/modules/bounces/intake-match';
import { buildArf, buildDsn } from './intake-reports';

const ID = 'email_01hq3z9y8x7w6v5t4s3r2q1p0n';
const OTHER = 'email_01hq3z9y8x7w6v5t4s3r2q1p0m';

function result(over: Partial<BounceResult>): BounceResult {
  return {
    recipient: 'a@dest.test',
    status: '5.1.1',
    smtpCode: 550,
    action: 'failed',
    diagnostic: 'user unknown',
    kind: 'hard',
    reason: 'userunknown',
    ...over,
  };
}

describe('messageCandidates', () => {
  it('takes the email id of VERP envelope recipients, in order, without duplicates', () => {
    const c = messageCandidates({
      rcptTo: [
        `<bounce+${ID}@bounce.shop.test>`,
        'postmaster@bounce.shop.test',
        `BOUNCE+${ID}@bounce.x.test`,
      ],
      raw: 'Subject: x\r\n\r\nbody',
      originalMessageId: null,
    });
    assert.deepEqual(c.verp, [ID]);
    assert.deepEqual(c.verpHeader, []);
    assert.equal(c.messageId, null);
  });

  it("reads VERP addresses from the report's own delivery headers, not from the returned message", () => {
    const raw = buildDsn({
      to: `bounce+${OTHER}@bounce.shop.test`,
      recipient: 'a@dest.test',
      messageId: `<${ID}@shop.test>`,
      status: '5.1.1',
      diagnostic: '550 5.1.1 User unknown',
    });
    const c = messageCandidates({ rcptTo: [], raw, originalMessageId: readReport(raw).originalMessageId });
    assert.deepEqual(c.verpHeader, [OTHER]);
    assert.equal(c.messageId, `<${ID}@shop.test>`);
  });

  it('is empty for a report that names nothing of ours', () => {
    const c = messageCandidates({
      rcptTo: [],
      raw: 'To: someone@else.test\r\n\r\nhi',
      originalMessageId: '  ',
    });
    assert.deepEqual(c, { verp: [], verpHeader: [], messageId: null });
  });
});

describe('mapResults', () => {
  it('ties a result to the recipient it names, case-insensitively', () => {
    const m = mapResults({
      results: [result({ recipient: 'B@Dest.test' })],
      recipients: ['a@dest.test', 'b@dest.test'],
      originalRecipients: [],
    });
    assert.deepEqual(
      m.mapped.map((x) => [x.recipient, x.rule]),
      [['b@dest.test', 'address']],
    );
    assert.equal(m.unmapped.length, 0);
  });

  it('ties a result naming nobody to the one recipient of ours the returned headers name', () => {
    const m = mapResults({
      results: [result({ recipient: null, kind: 'complaint' })],
      recipients: ['a@dest.test', 'b@dest.test'],
      originalRecipients: ['someone@list.test', 'B@dest.test'],
    });
    assert.deepEqual(
      m.mapped.map((x) => [x.recipient, x.rule]),
      [['b@dest.test', 'quoted_recipient']],
    );
  });

  it('ties any result of a one-recipient message to that recipient (alias, forward, no address)', () => {
    for (const recipient of [null, 'forwarded@elsewhere.test']) {
      const m = mapResults({
        results: [result({ recipient })],
        recipients: ['a@dest.test'],
        originalRecipients: [],
      });
      assert.deepEqual(
        m.mapped.map((x) => [x.recipient, x.rule]),
        [['a@dest.test', 'only_recipient']],
      );
    }
  });

  it('leaves unmapped what names no recipient of a multi-recipient message', () => {
    const m = mapResults({
      results: [result({ recipient: 'c@dest.test' }), result({ recipient: null })],
      recipients: ['a@dest.test', 'b@dest.test'],
      originalRecipients: ['a@dest.test', 'b@dest.test'],
    });
    assert.equal(m.mapped.length, 0);
    assert.equal(m.unmapped.length, 2);
  });

  it('keeps the worst reading when a report names a recipient twice', () => {
    const m = mapResults({
      results: [
        result({ kind: 'soft', status: '4.2.2', reason: 'mailboxfull' }),
        result({ kind: 'soft', status: '5.2.2', reason: 'mailboxfull' }),
        result({ kind: 'auto_reply', status: null }),
      ],
      recipients: ['a@dest.test'],
      originalRecipients: [],
    });
    assert.equal(m.mapped.length, 1);
    assert.equal(m.mapped[0]?.result.status, '5.2.2');
  });

  it('maps an ARF complaint through Original-Rcpt-To, else through the returned To:', () => {
    for (const originalRcptTo of ['b@dest.test', null]) {
      const reading = readReport(
        buildArf({ to: null, originalRcptTo, recipient: 'b@dest.test', messageId: `<${ID}@shop.test>` }),
      );
      const m = mapResults({
        results: reading.results,
        recipients: ['a@dest.test', 'b@dest.test'],
        originalRecipients: reading.originalRecipients,
      });
      assert.deepEqual(
        m.mapped.map((x) => [x.recipient, x.result.kind]),
        [['b@dest.test', 'complaint']],
      );
    }
  });
});

describe('isPermanent', () => {
  it('reads the enhanced status class first, then the reply code', () => {
    assert.equal(isPermanent({ status: '5.2.2', smtpCode: 452 }), true);
    assert.equal(isPermanent({ status: '4.2.2', smtpCode: 552 }), false);
    assert.equal(isPermanent({ status: null, smtpCode: 554 }), true);
    assert.equal(isPermanent({ status: null, smtpCode: 421 }), false);
    assert.equal(isPermanent({ status: null, smtpCode: null }), false);
  });
});
