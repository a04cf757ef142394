import type { QueueName } from './queues';
import { QUEUES } from './queues';

/**
 * How a worker's slots (WORKER_CONCURRENCY) are split between its queues, so a flood
 * in one queue cannot take the slots of another (issue 28, item 4(d): 130 inbound
 * messages with dead DKIM selectors held all 128 slots and a live send waited 2 min).
 *
 * Every queue has slots reserved for it that no other queue may use: a quarter of
 * the total for email-send (a live send is what a user waits on), one for each other
 * queue. The rest is shared, first come first served. Reservations are handed out in
 * that order while at least one slot stays shared; with a small total the later
 * queues only share.
 */
export interface SlotPlan {
  readonly total: number;
  /** The queues, email-send first, then in the order of QUEUES. */
  readonly order: readonly QueueName[];
  readonly reserved: ReadonlyMap<QueueName, number>;
  /** total minus every reservation; at least 1 when total > 1. */
  readonly shared: number;
}

export function planSlots(total: number, queues: readonly QueueName[]): SlotPlan {
  const reserved = new Map<QueueName, number>();
  const order = byPriority(queues);
  let left = total - 1;
  for (const queue of order) {
    const want = queue === 'email-send' ? Math.max(1, Math.floor(total / 4)) : 1;
    const n = Math.min(want, left);
    if (n <= 0) continue;
    reserved.set(queue, n);
    left -= n;
  }
  let sum = 0;
  for (const n of reserved.values()) sum += n;
  return { total, order, reserved, shared: total - sum };
}

/** email-send first, then the order of QUEUES. */
function byPriority(queues: readonly QueueName[]): QueueName[] {
  const rank = (q: QueueName): number => (q === 'email-send' ? -1 : QUEUES.indexOf(q));
  return [...queues].sort((a, b) => rank(a) - rank(b));
}

/**
 * The slots free at one moment, given what runs per queue. A queue may start a job in
 * one of its own free reserved slots or, failing that, in a free shared slot; `take`
 * books what a claim took so the next queue of the same claim sees what is left.
 */
export class SlotBudget {
  private readonly running: Map<QueueName, number>;
  private sharedUsed = 0;

  constructor(
    private readonly plan: SlotPlan,
    running: ReadonlyMap<QueueName, number>,
  ) {
    this.running = new Map(running);
    for (const [queue, n] of running) this.sharedUsed += Math.max(0, n - this.reservedOf(queue));
  }

  /** Jobs `queue` may start now. */
  allowance(queue: QueueName): number {
    const ownFree = Math.max(0, this.reservedOf(queue) - (this.running.get(queue) ?? 0));
    return ownFree + Math.max(0, this.plan.shared - this.sharedUsed);
  }

  take(queue: QueueName, n: number): void {
    const before = this.running.get(queue) ?? 0;
    const reserved = this.reservedOf(queue);
    this.running.set(queue, before + n);
    this.sharedUsed += Math.max(0, before + n - reserved) - Math.max(0, before - reserved);
  }

  private reservedOf(queue: QueueName): number {
    return this.plan.reserved.get(queue) ?? 0;
  }
}
