import { byArity } from '../db/precompiled';
import type { QueueName } from './queues';

/*
 * The claim's leasing statement as PostgreSQL runs it, beside the SQLite form in
 * claim.ts (one `claim` function picks by dialect; the dead-job step is one statement
 * there, compiled per dialect). Each step is one statement:
 * `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING`. Concurrent
 * claimers (other workers, other nodes) each lock the rows they pick and pass over
 * rows another claimer holds instead of queueing behind it, so N claimers take N
 * disjoint batches at once. Under READ COMMITTED a row committed by another claimer
 * after this statement's snapshot is re-checked against the WHERE when locked (it is
 * running with a fresh lease by then, so it drops out): no job goes to two owners.
 */

interface QueuesNow {
  queues: readonly QueueName[];
  now: string;
}

export interface LeasedRow {
  id: string;
  queue: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  run_at: string;
}

/**
 * Leases up to `limit` claimable jobs: those whose lease expired first (they were due
 * before anything else), then due jobs oldest first, as the SQLite form picks them.
 * Two branches, each walking an index in order (jobs_lease; jobs_due, migration 022)
 * and stopping at `limit`: one ORDER BY over both would sort every due row under the
 * locks, ~50 ms a claim with a 40,000-job backlog, where this takes well under 5.
 */
export const leaseJobsPg = byArity<
  QueuesNow & { owner: string; leaseExpiresAt: string; limit: number },
  LeasedRow
>((db, s, n) =>
  db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      lease_owner: s.param('owner'),
      lease_expires_at: s.param('leaseExpiresAt'),
      attempts: eb('attempts', '+', 1),
      updated_at: s.param('now'),
    }))
    .where('id', 'in', (eb) => {
      const expired = eb
        .selectFrom('jobs')
        .select('id')
        .where('queue', 'in', s.list('queues', n))
        .where('state', '=', 'running')
        .where('lease_expires_at', '<=', s.param('now'))
        .where((w) => w('attempts', '<', w.ref('max_attempts')))
        .orderBy('lease_expires_at')
        .limit(s.param('limit'))
        .forUpdate()
        .skipLocked();
      const due = eb
        .selectFrom('jobs')
        .select('id')
        .where('queue', 'in', s.list('queues', n))
        .where('state', '=', 'queued')
        .where('run_at', '<=', s.param('now'))
        .orderBy('run_at')
        .limit(s.param('limit'))
        .forUpdate()
        .skipLocked();
      // The branches sit in FROM: PostgreSQL refuses FOR UPDATE on a branch of a UNION itself.
      // The outer LIMIT stops the second branch locking more rows than it takes.
      return eb
        .selectFrom(
          eb
            .selectFrom(expired.as('e'))
            .select('e.id')
            .unionAll(eb.selectFrom(due.as('d')).select('d.id'))
            .as('picked'),
        )
        .select('picked.id')
        .limit(s.param('limit'));
    })
    .returning(['id', 'queue', 'payload', 'attempts', 'max_attempts', 'run_at']),
);

/** RETURNING has no defined order; the runner takes jobs oldest first. */
export function byRunAt(a: LeasedRow, b: LeasedRow): number {
  return a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : 0;
}
