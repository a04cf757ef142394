import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  HeaderSectionScanner,
  countDkimSignatures,
  scanHeaderSection,
  withoutExtraSignatures,
} from '../../../src/modules/inbound/header-section';
import { headerSectionVerdict } from '../../../src/mta/guard-verdicts';

const RAW = Buffer.from(
  'DKIM-Signature: v=1; s=a;\r\n b=1\r\n' +
    'dkim-signature : v=1; s=b\r\n' +
    'Subject: folded\r\n\tsecond line\r\n' +
    'DKIM-Signature: v=1; s=c\r\n' +
    'From: a@example.org\r\n' +
    '\r\n' +
    'DKIM-Signature: in the body\r\n',
);

void describe('header section scanner', () => {
  void it('finds each field, folded lines included, and stops at the empty line', () => {
    const section = scanHeaderSection(RAW);
    assert.deepEqual(
      section.fields.map((f) => f.name),
      ['dkim-signature', 'dkim-signature', 'subject', 'dkim-signature', 'from'],
    );
    assert.equal(countDkimSignatures(section), 3);
    assert.equal(RAW.subarray(section.end, section.end + 4).toString(), '\r\nDK');
    assert.equal(section.exceeded, false);
  });

  void it('gives the same answer for the message pushed in chunks split anywhere', () => {
    const whole = scanHeaderSection(RAW);
    for (let size = 1; size <= 7; size++) {
      const scanner = new HeaderSectionScanner();
      for (let i = 0; i < RAW.length; i += size) scanner.push(RAW.subarray(i, i + size));
      assert.deepEqual(scanner.end(), whole, `chunks of ${size}`);
    }
  });

  void it('stops counting past maxFields', () => {
    const section = scanHeaderSection(RAW, 3);
    assert.equal(section.exceeded, true);
    assert.equal(section.fields.length, 3);
  });

  void it('leaves out the signatures after the first `keep`, folded lines with them', () => {
    const { message, left } = withoutExtraSignatures(RAW, scanHeaderSection(RAW), 1);
    assert.equal(left, 2);
    assert.equal(
      message.toString(),
      'DKIM-Signature: v=1; s=a;\r\n b=1\r\nSubject: folded\r\n\tsecond line\r\nFrom: a@example.org\r\n' +
        '\r\nDKIM-Signature: in the body\r\n',
    );
    assert.equal(withoutExtraSignatures(RAW, scanHeaderSection(RAW), 3).message, RAW);
  });

  void it('verdicts: over the field count, over the signature count, within both', () => {
    const limits = { maxFields: 4, maxDkimSignatures: 2 };
    assert.equal(headerSectionVerdict(scanHeaderSection(RAW, 4), 3, limits)?.code, 554);
    const fine = scanHeaderSection(RAW);
    assert.match(
      headerSectionVerdict(fine, 3, { maxFields: 10, maxDkimSignatures: 2 })?.text ?? '',
      /3 DKIM/,
    );
    assert.equal(headerSectionVerdict(fine, 3, { maxFields: 10, maxDkimSignatures: 3 }), undefined);
  });
});
