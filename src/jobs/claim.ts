import type { Kysely } from 'kysely';
import { dialectOf } from '../db/connect';
import type { Database } from '../db/schema';
import { byArity, PreparedQuery } from '../db/precompiled';
import { claimable, expiredOnLastAttempt } from './claim-predicates';
import type { LeasedRow } from './claim-postgres';
import { byRunAt, leaseJobsPg } from './claim-postgres';
import type { QueueName } from './queues';
import type { SlotBudget } from './queue-slots';

/** A job this worker now holds a lease on. `attempts` and the owner together fence every later write. */
export interface ClaimedJob {
  readonly id: string;
  readonly queue: QueueName;
  /** The payload as stored; the runner parses it so one corrupt row cannot fail a whole claim. */
  readonly payloadJson: string;
  /** Including the attempt just started. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly leaseExpiresAt: string;
}

/** A job whose lease expired on its last allowed attempt: the claim made it terminal instead of running it again. */
export interface DeadJob {
  readonly id: string;
  readonly queue: QueueName;
  readonly attempts: number;
}

export interface ClaimOptions {
  readonly queues: readonly QueueName[];
  /** Unique per runner (host, pid, random); written to lease_owner. */
  readonly owner: string;
  readonly leaseMs: number;
  readonly limit: number;
  /**
   * Per-queue slots (queue-slots.ts): no queue takes more than its allowance, and what
   * one queue takes from the shared slots is no longer there for the next. Taken from.
   */
  readonly budget?: SlotBudget | undefined;
  /** The current time; tests move it forward instead of sleeping. */
  readonly now?: Date | undefined;
}

export interface ClaimResult {
  readonly jobs: readonly ClaimedJob[];
  readonly dead: readonly DeadJob[];
}

export const LEASE_EXPIRED_ERROR = 'lease expired during the final attempt (worker crashed or stalled)';

/**
 * A read, outside any transaction: is there anything `claim` would take or make
 * terminal? Callers that run the claim inside a transaction of their own (the job
 * runner's group commit) ask this first, so an idle poll never takes the write lock.
 */
export async function hasClaimable(
  db: Kysely<Database>,
  queues: readonly QueueName[],
  now: string,
): Promise<boolean> {
  if (queues.length === 0) return false;
  const any = await anyClaimable(queues.length).first(db, { queues, now });
  return any !== undefined;
}

/*
 * SQLite's statements. The claim's statements run several times per job (every poll, claim and
 * settlement): each is compiled once per arity (byArity in db/precompiled.ts), the number of
 * queues and of ids being part of the SQL.
 */

interface QueuesNow {
  queues: readonly QueueName[];
  now: string;
}

const anyClaimable = byArity<QueuesNow, { id: string }>((db, s, n) =>
  db
    .selectFrom('jobs')
    .select('id')
    .where('queue', 'in', s.list('queues', n))
    .where((eb) => eb.or([claimable(eb, s.param('now')), expiredOnLastAttempt(eb, s.param('now'))]))
    .limit(1),
);

/**
 * Jobs whose lease expired on their last attempt become `failed`, on either engine (compiled
 * once per dialect). PostgreSQL picks the rows FOR UPDATE SKIP LOCKED: a row another claimer
 * holds is its to report. SQLite's claimers run one at a time (BEGIN IMMEDIATE).
 */
const failExpiredOnLastAttempt = byArity<
  QueuesNow & { lastError: string },
  { id: string; queue: string; attempts: number }
>((db, s, n) => {
  const update = db.updateTable('jobs').set({
    state: 'failed',
    last_error: s.param('lastError'),
    finished_at: s.param('now'),
    updated_at: s.param('now'),
    lease_expires_at: null,
  });
  const picked =
    dialectOf(db) === 'postgres'
      ? update.where('id', 'in', (eb) =>
          eb
            .selectFrom('jobs')
            .select('id')
            .where('queue', 'in', s.list('queues', n))
            .where((w) => expiredOnLastAttempt(w, s.param('now')))
            .forUpdate()
            .skipLocked(),
        )
      : update
          .where('queue', 'in', s.list('queues', n))
          .where((eb) => expiredOnLastAttempt(eb, s.param('now')));
  return picked.returning(['id', 'queue', 'attempts']);
});

/**
 * The claim's clock and its first step. Read the clock when the claim runs (on SQLite, once
 * the write lock is held: BEGIN IMMEDIATE may have waited behind other writers, and a lease
 * must run from when it is granted), then make the dead jobs terminal.
 */
async function startClaim(
  db: Kysely<Database>,
  queues: QueueName[],
  options: ClaimOptions,
): Promise<{ now: string; leaseExpiresAt: string; dead: DeadJob[] }> {
  const nowDate = options.now ?? new Date();
  const now = nowDate.toISOString();
  const leaseExpiresAt = new Date(nowDate.getTime() + options.leaseMs).toISOString();
  const dead = await failExpiredOnLastAttempt(queues.length).rows(db, {
    queues,
    now,
    lastError: LEASE_EXPIRED_ERROR,
  });
  return { now, leaseExpiresAt, dead: dead.map(toDead) };
}

const leaseJobs = byArity<
  { ids: readonly string[]; owner: string; leaseExpiresAt: string; now: string },
  {
    id: string;
    queue: string;
    payload: string;
    attempts: number;
    max_attempts: number;
    lease_expires_at: string | null;
  }
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
    .where('id', 'in', s.list('ids', n))
    .where((eb) => claimable(eb, s.param('now')))
    .returning(['id', 'queue', 'payload', 'attempts', 'max_attempts', 'lease_expires_at']),
);

const expiredCandidates = byArity<QueuesNow & { limit: number }, { id: string; queue: string }>((db, s, n) =>
  db
    .selectFrom('jobs')
    .select(['id', 'queue'])
    .where('queue', 'in', s.list('queues', n))
    .where('state', '=', 'running')
    .where('lease_expires_at', '<=', s.param('now'))
    .where((eb) => eb('attempts', '<', eb.ref('max_attempts')))
    .orderBy('lease_expires_at')
    .limit(s.param('limit')),
);

const dueCandidates = new PreparedQuery<
  { queue: QueueName; now: string; limit: number },
  { id: string; run_at: string }
>((db, s) =>
  db
    .selectFrom('jobs')
    .select(['id', 'run_at'])
    .where('queue', '=', s.param('queue'))
    .where('state', '=', 'queued')
    .where('run_at', '<=', s.param('now'))
    .orderBy('run_at')
    .limit(s.param('limit')),
);

/**
 * The one claim. It (1) makes terminal the jobs whose lease expired on their last
 * attempt, so a job that keeps crashing its worker ends `failed` instead of looping,
 * and (2) leases up to `limit` claimable jobs to `owner`, counting the attempt now:
 * a worker killed mid-job has spent one.
 *
 * No job goes to two owners. SQLite: one write transaction (BEGIN IMMEDIATE, so
 * claimers run one at a time) picks candidates, then the UPDATE re-checks
 * `claimable` on the row it writes. PostgreSQL: each step is one statement whose
 * candidates are locked FOR UPDATE SKIP LOCKED (claim-postgres.ts), so concurrent
 * claimers take disjoint rows without waiting on each other.
 *
 * When `db` is already a transaction the claim runs inside it.
 */
export async function claim(db: Kysely<Database>, options: ClaimOptions): Promise<ClaimResult> {
  if (options.queues.length === 0 || options.limit < 1) return { jobs: [], dead: [] };
  const queues = [...options.queues];
  const probeNow = (options.now ?? new Date()).toISOString();

  // Idle workers poll; a read first keeps them from taking the write lock (and
  // stalling API writers) when there is nothing to do.
  if (!db.isTransaction && !(await hasClaimable(db, queues, probeNow))) return { jobs: [], dead: [] };

  if (dialectOf(db) === 'postgres') return claimPostgres(db, queues, options);
  return db.isTransaction
    ? claimSqlite(db, queues, options)
    : db.transaction().execute((trx) => claimSqlite(trx, queues, options));
}

/** Two statements, each atomic on its own: no transaction is needed around them. */
async function claimPostgres(
  db: Kysely<Database>,
  queues: QueueName[],
  options: ClaimOptions,
): Promise<ClaimResult> {
  const { now, leaseExpiresAt, dead } = await startClaim(db, queues, options);
  const lease = { now, owner: options.owner, leaseExpiresAt };
  const { budget } = options;
  const rows: LeasedRow[] = [];
  if (budget === undefined) {
    rows.push(...(await leaseJobsPg(queues.length).rows(db, { ...lease, queues, limit: options.limit })));
  } else {
    // One statement per queue, in the caller's order, each up to what the budget leaves it.
    for (const queue of queues) {
      const limit = Math.min(options.limit - rows.length, budget.allowance(queue));
      if (limit < 1) continue;
      const got = await leaseJobsPg(1).rows(db, { ...lease, queues: [queue], limit });
      budget.take(queue, got.length);
      rows.push(...got);
    }
  }
  rows.sort(byRunAt);
  return { dead, jobs: rows.map((r) => toClaimed(r, leaseExpiresAt)) };
}

async function claimSqlite(
  trx: Kysely<Database>,
  queues: QueueName[],
  options: ClaimOptions,
): Promise<ClaimResult> {
  const { now, leaseExpiresAt, dead } = await startClaim(trx, queues, options);

  const ids = await pickCandidates(trx, queues, now, options.limit, options.budget);
  if (ids.length === 0) return { jobs: [], dead };

  const rows = await leaseJobs(ids.length).rows(trx, { ids, owner: options.owner, leaseExpiresAt, now });

  // RETURNING has no defined order; keep the one candidates were picked in.
  const rank = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  return { dead, jobs: rows.map((r) => toClaimed(r, leaseExpiresAt)) };
}

/**
 * Up to `limit` ids: jobs whose lease expired first (they were due before anything
 * else), then due jobs oldest first, each only while its queue has room in `budget`.
 * One query per queue walks the jobs_claim index (queue, state, run_at) in order and
 * stops at `limit`; a single query over all queues would sort every due row, which
 * costs tens of ms per claim, under the write lock, once a backlog builds up.
 */
async function pickCandidates(
  trx: Kysely<Database>,
  queues: QueueName[],
  now: string,
  limit: number,
  budget: SlotBudget | undefined,
): Promise<string[]> {
  const picked: string[] = [];
  const admit = (row: { id: string; queue: QueueName }): void => {
    if (picked.length >= limit || (budget !== undefined && budget.allowance(row.queue) < 1)) return;
    budget?.take(row.queue, 1);
    picked.push(row.id);
  };
  const expired = await expiredCandidates(queues.length).rows(trx, { queues, now, limit });
  for (const row of expired) admit({ id: row.id, queue: row.queue as QueueName });
  const due: { id: string; run_at: string; queue: QueueName }[] = [];
  const room = limit - picked.length;
  for (const queue of room > 0 ? queues : []) {
    const queueRoom = Math.min(room, budget?.allowance(queue) ?? room);
    if (queueRoom < 1) continue;
    const rows = await dueCandidates.rows(trx, { queue, now, limit: queueRoom });
    for (const row of rows) due.push({ ...row, queue });
  }
  due.sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : 0));
  for (const row of due) admit(row);
  return picked;
}

function toDead(row: { id: string; queue: string; attempts: number }): DeadJob {
  return { id: row.id, queue: row.queue as QueueName, attempts: row.attempts };
}

type LeasedColumns = Pick<LeasedRow, 'id' | 'queue' | 'payload' | 'attempts' | 'max_attempts'>;

function toClaimed(row: LeasedColumns, leaseExpiresAt: string): ClaimedJob {
  return {
    id: row.id,
    queue: row.queue as QueueName,
    payloadJson: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    leaseExpiresAt,
  };
}
