import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DNSResolver } from 'mailauth';
import { dkimVerify } from 'mailauth';
import { generateDkimKeyPair } from '../../../src/modules/domains/dkim-key';
import type { DkimSigningKey } from '../../../src/mail/dkim-sign';
import { SIGNED_HEADERS, dkimSignatureValue } from '../../../src/mail/dkim-sign';

const MESSAGE = [
  'From: Shop <app@shop.example.com>',
  'To: a@dest.test',
  'Cc: b@dest.test',
  'Subject: Your receipt',
  'Date: Wed, 01 Jan 2025 00:00:00 +0000',
  'Message-ID: <email_1@shop.example.com>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: 7bit',
  'X-Campaign: spring',
  '',
  'Thanks for your order.',
  '.A line with a leading dot',
  '',
].join('\r\n');

function resolverFor(name: string, record: string): DNSResolver {
  return (domain, rrtype) => {
    if (rrtype === 'TXT' && domain === name) return Promise.resolve([[record]]);
    return Promise.reject(Object.assign(new Error(`no ${rrtype} ${domain}`), { code: 'ENOTFOUND' }));
  };
}

describe('dkimSignatureValue', () => {
  let key: DkimSigningKey;
  let resolver: DNSResolver;

  before(async () => {
    const pair = await generateDkimKeyPair();
    key = { domain: 'shop.example.com', selector: 'mr202501abcdef', privateKeyPem: pair.privateKeyPem };
    resolver = resolverFor(
      'mr202501abcdef._domainkey.shop.example.com',
      `v=DKIM1; k=rsa; p=${pair.publicKey}`,
    );
  });

  it('signs relaxed/relaxed rsa-sha256 as d=domain s=selector, verifiable once prepended', async () => {
    const value = await dkimSignatureValue(Buffer.from(MESSAGE), key);
    assert.doesNotMatch(value, /^DKIM-Signature/i, 'the field value only');
    assert.doesNotMatch(value, /\r\n$/);
    // Folded lines continue with whitespace, as add_leading_header keeps them.
    for (const line of value.split('\r\n').slice(1)) assert.match(line, /^[ \t]/);
    const flat = value.replace(/\r\n[ \t]+/g, ' ');
    assert.match(flat, /a=rsa-sha256;/);
    assert.match(flat, /c=relaxed\/relaxed;/);
    assert.match(flat, /d=shop\.example\.com;/);
    assert.match(flat, /s=mr202501abcdef;/);

    const signed = `DKIM-Signature: ${value}\r\n${MESSAGE}`;
    const result = await dkimVerify(Buffer.from(signed), { resolver });
    assert.equal(result.results[0]?.status.result, 'pass', JSON.stringify(result.results));
  });

  it('covers the headers a reader sees and the MIME structure, not custom X- headers', async () => {
    const flat = (await dkimSignatureValue(Buffer.from(MESSAGE), key)).replace(/\s+/g, '');
    const h = (/h=([^;]+);/.exec(flat)?.[1] ?? '').toLowerCase().split(':');
    for (const name of [
      'from',
      'to',
      'cc',
      'subject',
      'date',
      'message-id',
      'mime-version',
      'content-type',
    ]) {
      assert.ok(h.includes(name), `${name} in h=${h.join(':')}`);
    }
    assert.ok(!h.includes('x-campaign'));
    assert.ok(
      SIGNED_HEADERS.includes('List-Unsubscribe') && SIGNED_HEADERS.includes('List-Unsubscribe-Post'),
    );
  });

  it('fails when a header the signature covers is changed afterwards', async () => {
    const value = await dkimSignatureValue(Buffer.from(MESSAGE), key);
    const tampered = `DKIM-Signature: ${value}\r\n${MESSAGE.replace('Your receipt', 'Your refund')}`;
    const result = await dkimVerify(Buffer.from(tampered), { resolver });
    assert.notEqual(result.results[0]?.status.result, 'pass');
  });

  it('throws rather than return nothing: no From header, unusable key', async () => {
    await assert.rejects(
      dkimSignatureValue(Buffer.from(MESSAGE.replace(/^From: .*\r\n/m, '')), key),
      /ENOFROM/,
    );
    await assert.rejects(
      dkimSignatureValue(Buffer.from(MESSAGE), { ...key, privateKeyPem: 'not a key' }),
      /DKIM signing failed/,
    );
  });
});
