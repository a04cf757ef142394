import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSlots, SlotBudget } from '../../../src/jobs/queue-slots';
import { QUEUES } from '../../../src/jobs/queues';

void describe('planSlots', () => {
  void it('reserves a quarter for email-send and one for each other queue; the rest is shared', () => {
    const plan = planSlots(128, QUEUES);
    assert.equal(plan.order[0], 'email-send');
    assert.equal(plan.reserved.get('email-send'), 32);
    for (const q of QUEUES.slice(1)) assert.equal(plan.reserved.get(q), 1, q);
    assert.equal(plan.shared, 128 - 32 - 9);
  });

  void it('keeps one slot shared when the total is small, reserving for the first queues only', () => {
    const plan = planSlots(4, QUEUES);
    assert.deepEqual(
      [...plan.reserved],
      [
        ['email-send', 1],
        ['email-send:failed', 1],
        ['bounce-processing', 1],
      ],
    );
    assert.equal(plan.shared, 1);
    assert.deepEqual([...planSlots(1, QUEUES).reserved], []);
    assert.equal(planSlots(1, QUEUES).shared, 1);
  });
});

void describe('SlotBudget', () => {
  const plan = planSlots(8, ['email-send', 'inbound-processing', 'webhook-delivery']);
  // email-send 2, webhook-delivery 1, inbound-processing 1, shared 4.

  void it("lets a flooded queue fill its own slots and the shared ones, never the others' reserve", () => {
    const budget = new SlotBudget(plan, new Map([['inbound-processing', 5]]));
    assert.equal(budget.allowance('inbound-processing'), 0);
    assert.equal(budget.allowance('email-send'), 2);
    assert.equal(budget.allowance('webhook-delivery'), 1);
  });

  void it('books what a claim takes from the shared slots for the next queue', () => {
    const budget = new SlotBudget(plan, new Map());
    assert.equal(budget.allowance('email-send'), 6);
    budget.take('email-send', 6);
    assert.equal(budget.allowance('inbound-processing'), 1);
    assert.equal(budget.allowance('email-send'), 0);
    budget.take('inbound-processing', 1);
    assert.equal(budget.allowance('webhook-delivery'), 1);
  });
});
