import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declaredSize, injectMaxBytes, withSize } from '../../../src/mta/size-limits';

describe('injectMaxBytes', () => {
  it('is ceil(limit × 1.4) + 64 KiB', () => {
    assert.equal(injectMaxBytes(10_485_760), Math.ceil(10_485_760 * 1.4) + 65_536);
    assert.equal(injectMaxBytes(1001), 1402 + 65_536);
  });

  it('holds a base64-encoded attachment of the full API limit', () => {
    for (const limit of [1024, 200_000, 10_485_760, 26_214_400]) {
      // base64: 4 characters per 3 bytes, CRLF after every 76 characters.
      const encoded = Math.ceil(limit / 3) * 4;
      const wire = encoded + Math.ceil(encoded / 76) * 2;
      assert.ok(injectMaxBytes(limit) > wire + 4096, `${limit}: ${injectMaxBytes(limit)} vs ${wire}`);
    }
  });
});

describe('withSize', () => {
  it('replaces the SIZE keyword and nothing else', () => {
    assert.deepEqual(withSize(['mx Hello', 'PIPELINING', 'SIZE 14745600', 'SMTPUTF8'], 10_485_760), [
      'mx Hello',
      'PIPELINING',
      'SIZE 10485760',
      'SMTPUTF8',
    ]);
    assert.deepEqual(withSize(['mx Hello', 'SIZEABLE'], 5), ['mx Hello', 'SIZEABLE']);
  });
});

describe('declaredSize', () => {
  it('reads MAIL FROM SIZE= values', () => {
    assert.equal(declaredSize('12345'), 12345);
    assert.equal(declaredSize(0), 0);
    for (const bad of [undefined, null, '', 'x', '-1', '1.5'])
      assert.equal(declaredSize(bad), undefined, String(bad));
  });
});
