import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSealer, SealError, sealKeyId } from '../../../src/shared/seal';

const OLD = 'o'.repeat(40);
const NEW = 'n'.repeat(40);
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----\n';

function sealCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof SealError ? err.code : `not a SealError: ${String(err)}`;
  }
  return undefined;
}

describe('seal', () => {
  it('round-trips, names its key and hides the plaintext', () => {
    const sealer = createSealer({ secretKey: OLD });
    const sealed = sealer.seal(PEM, 'dkim:dom_1');
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    assert.equal(sealed.split('.')[1], sealer.keyId);
    assert.equal(sealer.keyId, sealKeyId(OLD));
    assert.ok(!sealed.includes('PRIVATE KEY'));
    assert.equal(sealer.open(sealed, 'dkim:dom_1'), PEM);
    assert.notEqual(sealer.seal(PEM, 'dkim:dom_1'), sealed, 'a fresh IV every time');
  });

  it('binds the value to its context and detects tampering', () => {
    const sealer = createSealer({ secretKey: OLD });
    const sealed = sealer.seal('secret', 'dkim:dom_1');
    assert.equal(
      sealCode(() => sealer.open(sealed, 'dkim:dom_2')),
      'SEAL_TAMPERED',
    );
    const parts = sealed.split('.');
    const ct = Buffer.from(parts[4] ?? '', 'base64url');
    ct[0] = (ct[0] ?? 0) ^ 1;
    parts[4] = ct.toString('base64url');
    assert.equal(
      sealCode(() => sealer.open(parts.join('.'), 'dkim:dom_1')),
      'SEAL_TAMPERED',
    );
    assert.equal(
      sealCode(() => sealer.open('v2.abc.def.ghi.jkl', 'x')),
      'SEAL_MALFORMED',
    );
    assert.equal(
      sealCode(() => sealer.open('not sealed at all', 'x')),
      'SEAL_MALFORMED',
    );
  });

  it('names the key a value needs when it was sealed under another SECRET_KEY', () => {
    const before = createSealer({ secretKey: OLD }).seal('key material', 'ctx');
    const withoutOld = createSealer({ secretKey: NEW });
    let message = '';
    try {
      withoutOld.open(before, 'ctx');
    } catch (err) {
      assert.ok(err instanceof SealError);
      assert.equal(err.code, 'SEAL_UNKNOWN_KEY');
      message = err.message;
    }
    assert.match(message, new RegExp(`key id ${sealKeyId(OLD)}`));
  });
});
