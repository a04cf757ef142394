import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateDataDirMode } from '../../../../src/cli/doctor/data-dir-check';

describe('doctor: DATA_DIR', () => {
  it('flags a DATA_DIR others can read, or owned by someone else', () => {
    assert.equal(evaluateDataDirMode('/data', 0o40700, 1000, 1000).status, 'ok');
    const open = evaluateDataDirMode('/data', 0o40755, 1000, 1000);
    assert.equal(open.status, 'warn');
    assert.deepEqual(open.hints, ['chmod 700 /data']);
    const foreign = evaluateDataDirMode('/data', 0o40700, 0, 1000);
    assert.equal(foreign.status, 'warn');
    assert.match(foreign.hints[0] ?? '', /chown -R 1000 \/data/);
  });
});
