import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Signal, SignalInputs, SignalName } from '../../../src/modules/abuse/signals';
import {
  describeFiring,
  evaluateSignals,
  firingNames,
  SIGNAL_NAMES,
} from '../../../src/modules/abuse/signals';

const quiet: SignalInputs = {
  attempted: 0,
  bounced: 0,
  complained: 0,
  failed: 0,
  lastHour: 0,
  baseline: 0,
  topRecipient: null,
};

function signal(inputs: Partial<SignalInputs>, name: SignalName): Signal {
  const found = evaluateSignals({ ...quiet, ...inputs }).find((s) => s.name === name);
  assert.ok(found, name);
  return found;
}

const fires = (inputs: Partial<SignalInputs>, name: SignalName): boolean => signal(inputs, name).fires;

describe('abuse signals', () => {
  it('reports all five, none firing for a quiet account', () => {
    const signals = evaluateSignals(quiet);
    assert.deepEqual(
      signals.map((s) => s.name),
      SIGNAL_NAMES,
    );
    assert.deepEqual(firingNames(signals), []);
    for (const s of signals) assert.equal(s.value, 0);
  });

  describe('bounce_rate: above 10 % over 24 h, with at least 50 messages', () => {
    it('does not fire below 50 attempted, even at 100 %', () => {
      assert.equal(fires({ attempted: 49, bounced: 49 }, 'bounce_rate'), false);
      assert.equal(signal({ attempted: 49, bounced: 49 }, 'bounce_rate').value, 100);
    });
    it('at exactly 50 attempted: 10 % does not fire, 12 % does', () => {
      assert.equal(fires({ attempted: 50, bounced: 5 }, 'bounce_rate'), false);
      assert.equal(fires({ attempted: 50, bounced: 6 }, 'bounce_rate'), true);
    });
    it('is strictly above the threshold: 50/500 no, 51/500 yes', () => {
      assert.equal(fires({ attempted: 500, bounced: 50 }, 'bounce_rate'), false);
      const s = signal({ attempted: 500, bounced: 51 }, 'bounce_rate');
      assert.equal(s.fires, true);
      assert.equal(s.value, 10.2);
      assert.equal(s.threshold, 10);
      assert.equal(s.window, '24h');
      assert.equal(s.unit, 'percent');
      assert.deepEqual(s.basis, { bounced: 51, attempted: 500, minimum: 50 });
    });
  });

  describe('complaint_rate: above 0.5 % over 24 h', () => {
    it('1 in 200 (0.5 %) does not fire, 1 in 199 does', () => {
      assert.equal(fires({ attempted: 200, complained: 1 }, 'complaint_rate'), false);
      assert.equal(fires({ attempted: 199, complained: 1 }, 'complaint_rate'), true);
    });
    it('has no minimum volume (spec), and nothing attempted is 0 %', () => {
      assert.equal(fires({ attempted: 1, complained: 1 }, 'complaint_rate'), true);
      assert.equal(fires({ attempted: 0, complained: 0 }, 'complaint_rate'), false);
    });
    it('rounds the value to two decimals', () => {
      assert.equal(signal({ attempted: 3, complained: 1 }, 'complaint_rate').value, 33.33);
    });
  });

  describe('failure_rate: above 30 % over 24 h', () => {
    it('30 % does not fire, just above does', () => {
      assert.equal(fires({ attempted: 10, failed: 3 }, 'failure_rate'), false);
      assert.equal(fires({ attempted: 1000, failed: 300 }, 'failure_rate'), false);
      assert.equal(fires({ attempted: 1000, failed: 301 }, 'failure_rate'), true);
    });
  });

  describe('volume_spike: last hour above 10 × the 7-day hourly baseline', () => {
    const perHour = (n: number): number => n * 168;
    it('against a baseline of 10/h: 100 does not fire, 101 does', () => {
      assert.equal(fires({ baseline: perHour(10), lastHour: 100 }, 'volume_spike'), false);
      const s = signal({ baseline: perHour(10), lastHour: 101 }, 'volume_spike');
      assert.equal(s.fires, true);
      assert.equal(s.value, 10.1);
      assert.equal(s.window, '1h');
      assert.equal(s.basis.baselinePerHour, 10);
    });
    it('needs at least 50 messages in the hour, whatever the ratio', () => {
      assert.equal(fires({ baseline: 0, lastHour: 49 }, 'volume_spike'), false);
      assert.equal(fires({ baseline: 0, lastHour: 50 }, 'volume_spike'), true);
    });
    it('floors the baseline at one message an hour', () => {
      const s = signal({ baseline: 0, lastHour: 50 }, 'volume_spike');
      assert.equal(s.value, 50);
      // 84 in 7 days is 0.5/h: the floor of 1/h applies, so 50 is 50×.
      assert.equal(signal({ baseline: 84, lastHour: 50 }, 'volume_spike').value, 50);
    });
    it('a steady high-volume sender is no spike', () => {
      assert.equal(fires({ baseline: perHour(500), lastHour: 700 }, 'volume_spike'), false);
    });
  });

  describe('recipient_repetition: one address more than 20 times in an hour', () => {
    it('20 does not fire, 21 does, naming the address', () => {
      assert.equal(
        fires({ topRecipient: { address: 'a@x.test', count: 20 } }, 'recipient_repetition'),
        false,
      );
      const s = signal({ topRecipient: { address: 'a@x.test', count: 21 } }, 'recipient_repetition');
      assert.equal(s.fires, true);
      assert.equal(s.value, 21);
      assert.deepEqual(s.basis, { address: 'a@x.test', count: 21 });
    });
  });

  it('describes the firing signals for a suspension reason', () => {
    const signals = evaluateSignals({
      ...quiet,
      attempted: 100,
      bounced: 20,
      topRecipient: { address: 'a@x.test', count: 25 },
    });
    assert.deepEqual(firingNames(signals), ['bounce_rate', 'recipient_repetition']);
    assert.equal(describeFiring(signals), 'bounce_rate 20% > 10% (24h); recipient_repetition 25 > 20 (1h)');
  });
});
