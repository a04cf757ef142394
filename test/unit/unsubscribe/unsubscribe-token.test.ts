import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../../src/shared/ids';
import {
  unsubscribeKey,
  unsubscribeToken,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from '../../../src/modules/unsubscribe/unsubscribe-token';

const KEY = unsubscribeKey('test-secret-0123456789abcdefghijklmnop');
const REF = { userId: newId('usr'), emailId: newId('email'), recipientId: newId('rcpt') };

describe('one-click unsubscribe token', () => {
  it('names the account, message and recipient it was made for', () => {
    const token = unsubscribeToken(KEY, REF);
    assert.match(token, /^[0-9a-z]{26}\.[0-9a-z]{26}\.[0-9a-z]{26}\.[0-9a-z]{32}$/);
    assert.deepEqual(verifyUnsubscribeToken(KEY, token), REF);
    assert.equal(
      unsubscribeUrl('https://mail.example.com/', token),
      `https://mail.example.com/public/unsubscribe/${token}`,
    );
  });

  it('refuses a changed id, a changed tag, another key and junk', () => {
    const token = unsubscribeToken(KEY, REF);
    const parts = token.split('.');
    const other = newId('rcpt').slice('rcpt_'.length);
    assert.equal(verifyUnsubscribeToken(KEY, [parts[0], parts[1], other, parts[3]].join('.')), undefined);
    const tag = parts[3] ?? '';
    const flipped = `${tag.slice(0, -1)}${tag.endsWith('0') ? '1' : '0'}`;
    assert.equal(verifyUnsubscribeToken(KEY, [...parts.slice(0, 3), flipped].join('.')), undefined);
    assert.equal(
      verifyUnsubscribeToken(unsubscribeKey('another-secret-0123456789abcdefghijkl'), token),
      undefined,
    );
    for (const junk of ['', 'x', `${token}.`, token.toUpperCase(), `${token}\n`, 'a'.repeat(10_000)]) {
      assert.equal(verifyUnsubscribeToken(KEY, junk), undefined, junk.slice(0, 40));
    }
  });
});
