import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateDisk } from '../../../../src/cli/doctor/disk-check';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('doctor: disk space', () => {
  it('grades free disk space', () => {
    assert.equal(evaluateDisk(100 * MiB, 10 * GiB).status, 'fail');
    assert.equal(evaluateDisk(1 * GiB, 100 * GiB).status, 'warn');
    assert.equal(evaluateDisk(5 * GiB, 100 * GiB).status, 'warn', 'under 10 %');
    assert.equal(evaluateDisk(50 * GiB, 100 * GiB, 500).status, 'warn', 'inodes');
    const ok = evaluateDisk(50 * GiB, 100 * GiB, 1_000_000);
    assert.equal(ok.status, 'ok');
    assert.equal(ok.summary, '50.0 GiB free of 100.0 GiB (50 %)');
  });

  it('fails under the configured DISK_FREE_FLOOR_MB', () => {
    assert.equal(evaluateDisk(3 * GiB, 100 * GiB, undefined, 4 * GiB).status, 'fail');
    assert.equal(evaluateDisk(100 * MiB, 100 * GiB, undefined, 64 * MiB).status, 'warn');
  });
});
