import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAddress, parseMailbox } from '../../../src/mail/address';
import { isStrictBase64 } from '../../../src/modules/sending/emails.schemas';

describe('parseMailbox', () => {
  const accepted: [string, string, string | null][] = [
    ['a@example.com', 'a@example.com', null],
    ['A.B+tag@Example.COM', 'A.B+tag@example.com', null],
    ['Jane <jane@example.com>', 'jane@example.com', 'Jane'],
    ['"Doe, Jane" <jane@example.com>', 'jane@example.com', 'Doe, Jane'],
    ['  <jane@example.com>  ', 'jane@example.com', null],
    ["o'brien@example.co.uk", "o'brien@example.co.uk", null],
    ['user@xn--bcher-kva.example', 'user@xn--bcher-kva.example', null],
  ];
  for (const [input, address, name] of accepted) {
    it(`accepts ${input}`, () => {
      const m = parseMailbox(input);
      assert.equal(m?.address, address);
      assert.equal(m?.name, name);
    });
  }

  const refused = [
    'plain',
    '@example.com',
    'a@',
    'a@@example.com',
    'a@localhost',
    'a@example',
    'a@127.0.0.1',
    'a@[127.0.0.1]',
    '"quoted"@example.com',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'user%other@example.com@relay.example',
    '@a.example:user@b.example',
    'a@-bad.example.com',
    'a@example.123',
    'a b@example.com',
    'a@example.com\r\nBcc: x@example.com',
    'Name <a@example.com',
    `${'x'.repeat(65)}@example.com`,
  ];
  for (const input of refused) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      assert.equal(parseMailbox(input), undefined);
    });
  }

  it('keeps the local part case and lower-cases the domain', () => {
    assert.deepEqual(parseAddress('Mixed.Case@EXAMPLE.org'), {
      address: 'Mixed.Case@example.org',
      localPart: 'Mixed.Case',
      domain: 'example.org',
    });
  });
});

describe('isStrictBase64', () => {
  it('accepts padded RFC 4648 base64, including the empty string', () => {
    for (const s of ['', 'QQ==', 'QUI=', 'QUJD', Buffer.from('hello world').toString('base64')]) {
      assert.equal(isStrictBase64(s), true, s);
    }
  });
  it('refuses whitespace, data: prefixes, url-safe alphabet, bad padding', () => {
    for (const s of ['QUJD\n', 'data:image/png;base64,QUJD', 'QU-_', 'QQ', 'Q===', 'QQ=A', 'QU JD']) {
      assert.equal(isStrictBase64(s), false, s);
    }
  });
  it('scans 14 MB in linear time without exhausting the regex stack', () => {
    assert.equal(isStrictBase64(Buffer.alloc(10 * 1024 * 1024).toString('base64')), true);
  });
});
