import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateSecretFile } from '../../../../src/cli/doctor/secret-check';

describe('doctor: master secret', () => {
  it('wants secret.key private and long enough', () => {
    assert.equal(evaluateSecretFile('/d/secret.key', null, null).status, 'warn');
    const open = evaluateSecretFile('/d/secret.key', { mode: 0o100644 }, 43);
    assert.equal(open.status, 'fail');
    assert.match(open.summary, /0644/);
    assert.match(open.hints[0] ?? '', /chmod 600/);
    assert.equal(evaluateSecretFile('/d/secret.key', { mode: 0o100600 }, 10).status, 'fail');
    assert.equal(evaluateSecretFile('/d/secret.key', { mode: 0o100600 }, 43).status, 'ok');
  });
});
