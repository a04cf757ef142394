import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateClock } from '../../../../src/cli/doctor/clock-check';

describe('doctor: clock', () => {
  it('checks the clock for plausibility and against a reference', () => {
    const floor = Date.UTC(2025, 0, 1);
    const now = Date.UTC(2025, 5, 1);
    assert.equal(evaluateClock({ nowMs: Date.UTC(1970, 0, 2), floorMs: floor }).status, 'fail');
    assert.equal(evaluateClock({ nowMs: Date.UTC(2150, 0, 1), floorMs: floor }).status, 'fail');
    assert.equal(evaluateClock({ nowMs: now, floorMs: floor }).status, 'ok');
    const ref = (skewS: number): { source: string; dateMs: number } => ({
      source: 'time.test',
      dateMs: now - skewS * 1000,
    });
    assert.equal(evaluateClock({ nowMs: now, floorMs: floor, reference: ref(2) }).status, 'ok');
    assert.equal(evaluateClock({ nowMs: now, floorMs: floor, reference: ref(-60) }).status, 'warn');
    const far = evaluateClock({ nowMs: now, floorMs: floor, reference: ref(600) });
    assert.equal(far.status, 'fail');
    assert.match(far.summary, /600 s ahead of time\.test/);
    assert.equal(
      evaluateClock({ nowMs: now, floorMs: floor, reference: { source: 'x', error: 'timeout' } }).status,
      'warn',
    );
  });
});
