import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { EnqueueResult } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import type { Logger } from '../../shared/logger';
import { accountsWithMailSince, pruneFinishedJobs } from './abuse.repository';
import { evaluateAccount } from './abuse.usecases';

export const ABUSE_QUEUE = 'abuse-evaluation';

const MINUTE_MS = 60_000;
/** Every account with mail in the last day is evaluated at least this often. */
export const SWEEP_INTERVAL_MS = 10 * MINUTE_MS;
/** The signals' longest window: older mail cannot make one fire. */
const ACTIVE_WINDOW_MS = 24 * 60 * MINUTE_MS;
/** Finished evaluation jobs are kept this long (their dedupe keys are past slots by then). */
const KEEP_FINISHED_MS = 24 * 60 * MINUTE_MS;

const payloadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('account'), userId: z.string().min(1) }),
  z.object({ kind: z.literal('sweep'), slot: z.string() }),
]);

/** The end of the minute `now` falls in: when its evaluation runs, and part of its dedupe key. */
function evaluationSlotEnd(now: Date): string {
  return new Date((Math.floor(now.getTime() / MINUTE_MS) + 1) * MINUTE_MS).toISOString();
}

/**
 * Asks for an evaluation of the account "after sends, at most once a minute"
 * (spec: Limits). The job runs at the end of the current minute, and its dedupe
 * key names the account and that minute, so every send within a minute shares one
 * evaluation that sees all of them. Takes `db` or the send's transaction.
 */
export async function requestAbuseEvaluation(
  db: Kysely<Database>,
  userId: string,
  now: Date = new Date(),
): Promise<EnqueueResult> {
  const slotEnd = evaluationSlotEnd(now);
  return enqueue(db, {
    queue: ABUSE_QUEUE,
    payload: { kind: 'account', userId },
    runAt: new Date(slotEnd),
    dedupeKey: `account:${userId}:${slotEnd}`,
    maxAttempts: 3,
  });
}

/** Per process: the evaluation slot already enqueued (and committed) for each account. */
const enqueuedSlot = new Map<string, string>();

/**
 * Whether a send at `now` still has to enqueue its account's evaluation: false
 * once this process committed the job of the same minute (issue 11: the send path
 * skips the insert and its dedupe read for every later send of that minute). The
 * job table's dedupe key stays the guarantee across processes (API and MTA) and
 * restarts; this only avoids statements that would have changed nothing.
 */
export function abuseEvaluationPending(userId: string, now: Date): boolean {
  return enqueuedSlot.get(userId) !== evaluationSlotEnd(now);
}

/** Records, after the send's commit, that the evaluation of `now`'s minute is enqueued. */
export function noteAbuseEvaluationEnqueued(userId: string, now: Date): void {
  const slot = evaluationSlotEnd(now);
  if (enqueuedSlot.size >= 10_000) {
    // Bounded: entries of minutes that have ended are worth nothing.
    const current = evaluationSlotEnd(new Date());
    for (const [id, s] of enqueuedSlot) if (s < current) enqueuedSlot.delete(id);
    if (enqueuedSlot.size >= 10_000) enqueuedSlot.clear();
  }
  enqueuedSlot.set(userId, slot);
}

/** Enqueues the sweep of the slot `now` falls in (or the next): one job per slot, whoever calls. */
export async function scheduleAbuseSweep(
  db: Kysely<Database>,
  options: { readonly now?: Date | undefined; readonly slot?: 'current' | 'next' } = {},
): Promise<EnqueueResult> {
  const index =
    Math.floor((options.now ?? new Date()).getTime() / SWEEP_INTERVAL_MS) + (options.slot === 'next' ? 1 : 0);
  const runAt = new Date(index * SWEEP_INTERVAL_MS);
  return enqueue(db, {
    queue: ABUSE_QUEUE,
    payload: { kind: 'sweep', slot: runAt.toISOString() },
    runAt,
    dedupeKey: `sweep:${runAt.toISOString()}`,
    maxAttempts: 3,
  });
}

/**
 * The sweep catches what arrives after the sends: bounces and complaints of an
 * account that stopped sending. It only enqueues (one evaluation per active
 * account, sharing the after-send dedupe key), chains the next sweep first so the
 * schedule survives a failing sweep, and prunes old finished evaluations.
 */
async function sweep(db: Kysely<Database>, now: Date, log: Logger): Promise<void> {
  await scheduleAbuseSweep(db, { now, slot: 'next' });
  const accounts = await accountsWithMailSince(db, new Date(now.getTime() - ACTIVE_WINDOW_MS).toISOString());
  for (const userId of accounts) await requestAbuseEvaluation(db, userId, now);
  const pruned = await pruneFinishedJobs(
    db,
    ABUSE_QUEUE,
    new Date(now.getTime() - KEEP_FINISHED_MS).toISOString(),
  );
  log.info({ event: 'abuse_sweep', accounts: accounts.length, pruned }, 'abuse sweep');
}

/** What the worker hands a handler (structurally its JobHandler arguments). */
export interface GovernanceJobContext {
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

export type GovernanceHandler = (
  job: { readonly payload: unknown },
  ctx: GovernanceJobContext,
) => Promise<void>;

/** The worker's handler for the `abuse-evaluation` queue: per-account evaluations and sweeps. */
export function createGovernanceHandlers(deps: {
  readonly db: Kysely<Database>;
  readonly config: Pick<AppConfig, 'abuseAutoSuspend' | 'abuseMinVolume'>;
}): { readonly 'abuse-evaluation': GovernanceHandler } {
  return {
    'abuse-evaluation': async (job, ctx) => {
      const log = ctx.logger.child({ module: 'abuse' });
      const parsed = payloadSchema.safeParse(job.payload);
      // A malformed payload cannot get better on retry; say so and let the attempts run out.
      if (!parsed.success) throw new Error(`abuse-evaluation: malformed payload: ${parsed.error.message}`);
      const now = new Date();
      if (parsed.data.kind === 'sweep') return sweep(deps.db, now, log);
      await evaluateAccount({ db: deps.db, config: deps.config, log, userId: parsed.data.userId, now });
    },
  };
}

/** Recurring governance work, seeded at worker start (idempotent: one job per slot). */
export async function seedGovernanceSchedules(
  db: Kysely<Database>,
  _config?: Pick<AppConfig, 'abuseAutoSuspend'>,
): Promise<void> {
  await scheduleAbuseSweep(db, { slot: 'current' });
}
