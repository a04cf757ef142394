import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceResult } from '../../../src/mail/reply-classifier/bounce-result';
import { readReport } from '../../../src/modules/bounces/classify-report';
import { isPermanent, mapResults, messageCandidates } from '../../../src/modules/bounces/intake-match';
import { taggedVerpAddress, verpAddress, verpKey } from '../../../src/mail/verp-address';
import { buildArf, buildDsn } from '../../helpers/intake-reports';

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

const KEY = verpKey('intake-match-test-secret-0123456789abcdef');
const verp = (id: string, domain: string): string => taggedVerpAddress(id, domain, KEY);

describe('messageCandidates', () => {
  it('takes tagged VERP envelope recipients, in order, without duplicates; the hosts are the scope', () => {
    const c = messageCandidates({
      rcptTo: [
        `<${verp(ID, 'shop.test')}>`,
        'postmaster@bounce.shop.test',
        verp(ID, 'shop.test').toUpperCase(),
      ],
      raw: 'Subject: x\r\n\r\nbody',
      originalMessageId: null,
      verpKey: KEY,
    });
    assert.deepEqual(c.verp, [{ emailId: ID, domain: 'shop.test' }]);
    assert.deepEqual(c.verpHeader, []);
    assert.equal(c.messageId, null);
    assert.deepEqual(c.scope, ['shop.test']);
    assert.deepEqual(c.refused, []);
  });

  it('takes the untagged return path the worker writes now (spec, domains rule 5)', () => {
    const c = messageCandidates({
      rcptTo: [verpAddress(ID, 'Shop.test'), `BOUNCE+${OTHER.toUpperCase()}@bounce.shop.test`],
      raw: 'Subject: x\r\n\r\nbody',
      originalMessageId: null,
      verpKey: KEY,
    });
    assert.deepEqual(c.verp, [
      { emailId: ID, domain: 'shop.test' },
      { emailId: OTHER, domain: 'shop.test' },
    ]);
    assert.deepEqual(c.refused, []);
  });

  it('refuses VERP addresses with a wrong tag or for a domain outside the scope, untagged or not (issue 17, finding 3)', () => {
    const forged = verp(OTHER, 'other.test').replace('@bounce.other.test', '@bounce.shop.test');
    const wrongTag = verp(ID, 'shop.test').replace(/\.[0-9a-z]{16}@/, '.0000000000000000@');
    const c = messageCandidates({
      rcptTo: [wrongTag, forged],
      raw: `To: ${verp(OTHER, 'other.test')}\r\nDelivered-To: bounce+${ID}@bounce.other.test\r\n\r\nbody`,
      originalMessageId: null,
      verpKey: KEY,
    });
    assert.deepEqual(c.verp, []);
    assert.deepEqual(c.verpHeader, []);
    assert.deepEqual(c.refused, [ID, OTHER]);
    const wrongKey = messageCandidates({
      rcptTo: [verp(ID, 'shop.test')],
      raw: 'Subject: x\r\n\r\nbody',
      originalMessageId: null,
      verpKey: verpKey('another-secret-0123456789abcdefghijklmn'),
    });
    assert.deepEqual(wrongKey.verp, []);
  });

  it("reads VERP addresses from the report's own delivery headers, not from the returned message", () => {
    const raw = buildDsn({
      to: verp(OTHER, 'shop.test'),
      recipient: 'a@dest.test',
      messageId: `<${ID}@shop.test>`,
      status: '5.1.1',
      diagnostic: '550 5.1.1 User unknown',
    });
    const c = messageCandidates({
      rcptTo: [],
      raw,
      originalMessageId: readReport(raw).originalMessageId,
      verpKey: KEY,
    });
    assert.deepEqual(c.verpHeader, [{ emailId: OTHER, domain: 'shop.test' }]);
    assert.equal(c.messageId, `<${ID}@shop.test>`);
    assert.deepEqual(c.scope, ['shop.test']);
  });

  it('is empty and unscoped for a report posted to the endpoint that names nothing of ours', () => {
    const c = messageCandidates({
      rcptTo: [],
      raw: 'To: someone@else.test\r\n\r\nhi',
      originalMessageId: '  ',
      verpKey: KEY,
    });
    assert.deepEqual(c, { verp: [], verpHeader: [], messageId: null, scope: null, refused: [] });
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
