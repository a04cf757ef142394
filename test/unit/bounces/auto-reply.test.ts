import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAutoReply } from '../../../src/modules/bounces/auto-reply';
import { classifyReport } from '../../../src/modules/bounces/classify-report';
import { parseHeaderBlock } from '../../../src/modules/bounces/header-fields';

const headers = (...l: string[]) => parseHeaderBlock(l.join('\n'));

describe('RFC 3834 automatic responses', () => {
  it('recognises Auto-Submitted: auto-replied (§5.1) and the vendor headers before it', () => {
    assert.equal(
      isAutoReply(headers('From: a@example.org', 'Auto-Submitted: auto-replied', 'Subject: Re: hi')),
      true,
    );
    assert.equal(isAutoReply(headers('From: a@example.org', 'X-Autoreply: yes', 'Subject: hi')), true);
    assert.equal(
      isAutoReply(headers('From: a@example.org', 'X-Apple-Action: VACATION', 'Subject: hi')),
      true,
    );
    assert.equal(isAutoReply(headers('From: a@example.org', 'Precedence: auto_reply', 'Subject: hi')), true);
  });

  it('recognises out-of-office subjects in several languages', () => {
    for (const subject of [
      'Automatic reply: Offer',
      'Out of Office: Offer',
      'Abwesenheitsnotiz: Angebot',
      'Réponse automatique : Offre',
      'Auto: Offer',
    ]) {
      assert.equal(isAutoReply(headers('From: a@example.org', `Subject: ${subject}`)), true, subject);
    }
  });

  it('does not take a bounce for an auto-reply (Exim marks its bounces auto-replied)', () => {
    assert.equal(
      isAutoReply(
        headers(
          'From: Mail Delivery System <Mailer-Daemon@mx.example.org>',
          'Auto-Submitted: auto-replied',
          'Subject: Mail delivery failed',
        ),
      ),
      false,
    );
    assert.equal(isAutoReply(headers('From: a@example.org', 'Subject: Lunch?')), false);
  });

  it('classifies an out-of-office reply as auto_reply for its sender', () => {
    const raw = [
      'From: Kim <kim@example.org>',
      'To: news@sender.example',
      'Subject: Out of office',
      'Auto-Submitted: auto-replied',
      '',
      'I am out of the office until Monday. Ask sam@example.org.',
    ].join('\r\n');
    assert.deepEqual(classifyReport(raw), [
      {
        recipient: 'kim@example.org',
        status: null,
        smtpCode: null,
        action: 'auto-reply',
        diagnostic: 'Out of office',
        kind: 'auto_reply',
        reason: 'vacation',
      },
    ]);
  });
});
