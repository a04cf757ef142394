// Two group commits on PostgreSQL (two processes or nodes: two pools here) whose units take
// the same locks in opposite orders deadlock; the server fails one statement with
// deadlock_detected (40P01). The unit it hit must run again after its rival committed,
// not fail its caller (a 500 for a send that would have gone through a moment later).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../../src/db/connect';
import { serialise } from '../../../src/db/serialise';
import { WriteBatcher } from '../../../src/db/write-batcher';
import type { BackendDb } from '../../helpers/backend-api';
import { openBackendDb } from '../../helpers/backend-api';
import { requirePostgres } from '../../helpers/postgres';

/** Resolves once `n` parties have arrived. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === n) open();
    return opened;
  };
}

describe('WriteBatcher: a unit that loses a deadlock on PostgreSQL runs again', requirePostgres(), () => {
  let shared: BackendDb;
  let nodeA: Db;
  let nodeB: Db;

  before(async () => {
    shared = await openBackendDb('postgres');
    [nodeA, nodeB] = shared.nodes;
  });
  after(() => shared.close());

  /**
   * Node A takes `k1` then `k2`, node B the other way round; each waits after its first
   * lock for the other's, so both hold one when they ask for the next. `split`: each
   * lock in a unit of its own, two units in one batch (run under savepoints); otherwise
   * one unit takes both (a lone unit runs without a savepoint).
   */
  async function crossed(split: boolean): Promise<{ results: string[]; runs: string[] }> {
    const both = barrier(2);
    const runs: string[] = [];
    const [k1, k2] = [`k1:${split}`, `k2:${split}`];
    const node = (db: Db, name: string, first: string, second: string): Promise<string>[] => {
      const writes = new WriteBatcher(db);
      const take = (label: string, keys: string[], wait: boolean) =>
        writes.run(async (trx) => {
          runs.push(label);
          for (const [i, key] of keys.entries()) {
            await serialise(trx, key);
            if (wait && i === 0) await both();
          }
          return label;
        });
      // Submitted in one turn of the event loop: a node's units share one transaction.
      return split
        ? [take(`${name}1`, [first], true), take(`${name}2`, [second], false)]
        : [take(name, [first, second], true)];
    };
    const settled = await Promise.allSettled([...node(nodeA, 'a', k1, k2), ...node(nodeB, 'b', k2, k1)]);
    return { results: settled.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason))), runs };
  }

  it('two units per batch, each under its savepoint: both batches commit every unit', async () => {
    const { results, runs } = await crossed(true);
    assert.deepEqual(results, ['a1', 'a2', 'b1', 'b2']);
    // The deadlock really happened: the unit it hit ran twice.
    assert.equal(runs.length, 5, runs.join(' '));
  });

  it('a lone unit, run without a savepoint: both commit', async () => {
    const { results, runs } = await crossed(false);
    assert.deepEqual(results, ['a', 'b']);
    assert.equal(runs.length, 3, runs.join(' '));
  });
});
