import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { overviewWindow, percent, summarise } from '../../../src/modules/stats/stats-overview';

describe('stats overview', () => {
  it('window: N UTC calendar days ending today', () => {
    const now = new Date('2025-03-01T00:30:00.000Z');
    assert.deepEqual(overviewWindow(1, now), { days: 1, from: '2025-03-01', to: '2025-03-01' });
    assert.deepEqual(overviewWindow(30, now), { days: 30, from: '2025-01-31', to: '2025-03-01' });
  });

  it('rates are over terminal messages only, as percentages with two decimals', () => {
    const { totals, rates } = summarise([
      { day: '2025-03-01', status: 'delivered', count: 5 },
      { day: '2025-03-01', status: 'bounced', count: 1 },
      { day: '2025-03-01', status: 'queued', count: 100 },
      { day: '2025-03-01', status: 'sent', count: 40 },
      { day: '2025-03-02', status: 'delivered', count: 1 },
      { day: '2025-03-02', status: 'complained', count: 1 },
      { day: '2025-03-02', status: 'failed', count: 1 },
      { day: '2025-03-02', status: 'cancelled', count: 3 },
    ]);
    // Terminal: 6 delivered + 1 bounced + 1 complained + 1 failed = 9; queued, sent and cancelled do not count.
    assert.deepEqual(rates, { delivery: 66.67, bounce: 11.11, complaint: 11.11, terminalMessages: 9 });
    assert.equal(totals.delivered, 6);
    assert.equal(totals.queued, 100);
    assert.equal(totals.processing, 0);
    assert.equal(totals.total, 152);
  });

  it('no terminal messages: every rate is 0', () => {
    assert.deepEqual(summarise([{ day: '2025-03-01', status: 'queued', count: 3 }]).rates, {
      delivery: 0,
      bounce: 0,
      complaint: 0,
      terminalMessages: 0,
    });
    assert.equal(percent(0, 0), 0);
    assert.equal(percent(1, 8), 12.5);
  });
});
