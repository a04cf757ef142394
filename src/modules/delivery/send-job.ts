import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { WriteBatcher } from '../../db/write-batcher';
import type { EnqueueInput } from '../../jobs/enqueue';
import type { Logger } from '../../shared/logger';
import type { JobHandler } from '../../jobs/job-handler';
import { PermanentJobError } from '../../jobs/job-handler';
import type { Injector } from './inject-client';
import { createInjector } from './inject-client';
import type { AttemptDeps, TransientPlan } from './send-attempt';
import { attemptSend, deferredToMta, retryDeferred } from './send-attempt';
import type { DirectDeps } from './direct-delivery';
import { unsubscribeKey } from '../unsubscribe';
import type { CaptureSigner } from './local-hand-off';
import { rawStoreFor } from '../inbound';

export const EMAIL_SEND_QUEUE = 'email-send';
/** Spec: parked messages wait here for a slow retry (operators alert on its depth). */
export const EMAIL_SEND_STAGED_QUEUE = 'email-send:failed';

/**
 * Hand-off attempts on `email-send` before the message is parked. With the job
 * runner's backoff (1 s doubling, +25 % jitter) the eighth attempt comes about
 * two minutes after the first: long enough for the supervisor to restart a
 * crashed MTA, short enough that a real outage reaches the operator's alert.
 */
export const EMAIL_SEND_ATTEMPT_BUDGET = 8;

/**
 * The `maxAttempts` of an `email-send` job: the budget plus two claims for
 * workers that die mid-attempt (the claim counts those). The handler parks the
 * message itself once the budget is spent, so the job never runs out while the
 * message could still be sent.
 */
export const EMAIL_SEND_MAX_ATTEMPTS = EMAIL_SEND_ATTEMPT_BUDGET + 2;

const MINUTE = 60_000;

/**
 * Slow retries from `email-send:failed`: the delay before each, counted from the
 * failure before it. After the last one fails the message is `failed`
 * (`email_failed_exhausted`): about 5 h 10 min after it was parked.
 */
export const STAGED_RETRY_DELAYS_MS: readonly number[] = [10 * MINUTE, 60 * MINUTE, 240 * MINUTE];

/** A staged job only fails as a job on database trouble; these cover a worker crash or two. */
const STAGED_JOB_MAX_ATTEMPTS = 3;

export interface EmailSendPayload {
  readonly emailId: string;
  /** A hand-back's resend (src/modules/nodes/hand-back.ts): only the recipients put back to `queued`. */
  readonly resend?: true;
  /**
   * OUTBOUND_SENDER=worker: the retry of the recipients deferred by delivery attempt N (the
   * worker's own sender, src/modules/delivery/direct-delivery.ts); 0: recipients held by their
   * destination's pacing before their first delivery.
   */
  readonly deferred?: number;
  /**
   * With `deferred` (then ≥ 0: the attempts behind them): only these recipients, whether `sent`
   * or `deferred`: the group pacing held (src/sender/pacing.ts), or mail taken over from an old
   * Haraka outbound queue at start-up (src/modules/delivery/queue-takeover.ts). Absent (a job from
   * before pacing): every deferred recipient.
   */
  readonly recipients?: readonly string[];
}

export interface StagedSendPayload {
  readonly emailId: string;
  readonly resend?: true;
  /** 1-based index into STAGED_RETRY_DELAYS_MS. */
  readonly stage: number;
}

const EMAIL_ID = /^email_[0-9a-z]{26}$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

export function parseEmailSendPayload(v: unknown): EmailSendPayload | undefined {
  if (!isRecord(v) || typeof v.emailId !== 'string' || !EMAIL_ID.test(v.emailId)) return undefined;
  if (v.deferred !== undefined) {
    const n = v.deferred;
    if (typeof n !== 'number' || !Number.isInteger(n)) return undefined;
    if (v.recipients === undefined) return n >= 1 ? { emailId: v.emailId, deferred: n } : undefined;
    const recipients = parseRecipients(v.recipients);
    return n >= 0 && recipients ? { emailId: v.emailId, deferred: n, recipients } : undefined;
  }
  return v.resend === true ? { emailId: v.emailId, resend: true } : { emailId: v.emailId };
}

/** A message has at most EMAIL_MAX_RECIPIENTS (≤ 1000) recipients; a list past that is not ours. */
const MAX_LISTED_RECIPIENTS = 1000;

function parseRecipients(v: unknown): string[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LISTED_RECIPIENTS) return undefined;
  // An address is at most 320 characters (RFC 5321 §4.5.3.1: 64 + 1 + 255).
  return v.every((a): a is string => typeof a === 'string' && a.length > 0 && a.length <= 320)
    ? v
    : undefined;
}

export function parseStagedSendPayload(v: unknown): StagedSendPayload | undefined {
  const base = parseEmailSendPayload(v);
  if (!base || !isRecord(v) || typeof v.stage !== 'number' || !Number.isInteger(v.stage)) return undefined;
  if (v.stage < 1 || v.stage > STAGED_RETRY_DELAYS_MS.length) return undefined;
  return { ...base, stage: v.stage };
}

/**
 * The job the API enqueues in the transaction that writes the message. `runAt`
 * is `scheduledAt` (absent: now). The dedupe key makes a repeated enqueue for the
 * same message a no-op.
 */
export function emailSendJob(emailId: string, runAt?: Date): EnqueueInput {
  return {
    queue: EMAIL_SEND_QUEUE,
    payload: { emailId } satisfies EmailSendPayload,
    runAt,
    maxAttempts: EMAIL_SEND_MAX_ATTEMPTS,
    dedupeKey: emailId,
  };
}

/**
 * The `email-send` of a hand-back: the recipients a silent node held, sent again
 * (src/modules/nodes/hand-back.ts). One per hand-back: `attempts` (the message's
 * count when it was handed back) differs for each, since every resend counts one.
 */
export function resendJob(emailId: string, attempts: number): EnqueueInput {
  return {
    queue: EMAIL_SEND_QUEUE,
    payload: { emailId, resend: true } satisfies EmailSendPayload,
    maxAttempts: EMAIL_SEND_MAX_ATTEMPTS,
    dedupeKey: `${emailId}:hand-back:${attempts}`,
  };
}

/** The slow retry number `stage`, due STAGED_RETRY_DELAYS_MS[stage - 1] from `now`. */
export function stagedSendJob(
  emailId: string,
  stage: number,
  now: Date = new Date(),
  resend = false,
): EnqueueInput & { readonly runAt: Date } {
  const delay = STAGED_RETRY_DELAYS_MS[stage - 1];
  if (delay === undefined) throw new RangeError(`no staged retry ${stage}`);
  const payload: StagedSendPayload = resend ? { emailId, stage, resend: true } : { emailId, stage };
  return {
    queue: EMAIL_SEND_STAGED_QUEUE,
    payload,
    runAt: new Date(now.getTime() + delay),
    maxAttempts: STAGED_JOB_MAX_ATTEMPTS,
    // A resend's parking gets keys of its own: the first hand-off's may be taken.
    dedupeKey: resend ? `${emailId}:${stage}:resend:${now.toISOString()}` : `${emailId}:${stage}`,
  };
}

/**
 * The attempt that parks the message: EMAIL_SEND_ATTEMPT_BUDGET, or earlier when
 * the job was enqueued with fewer attempts than EMAIL_SEND_MAX_ATTEMPTS, so that
 * parking always happens before the job runs out (keeping two spare claims).
 */
export function attemptBudget(maxAttempts: number | undefined): number {
  const spare = EMAIL_SEND_MAX_ATTEMPTS - EMAIL_SEND_ATTEMPT_BUDGET;
  return Math.max(1, Math.min(EMAIL_SEND_ATTEMPT_BUDGET, (maxAttempts ?? EMAIL_SEND_MAX_ATTEMPTS) - spare));
}

export interface SendJobDeps {
  readonly db: Kysely<Database>;
  readonly config: Pick<AppConfig, 'injectPort' | 'secretKey' | 'mailHostname' | 'baseUrl' | 'dataDir'> &
    Partial<Pick<AppConfig, 'nodeName'>>;
  /** Signs captured test mail (the worker's DKIM signer); absent: captured unsigned. */
  readonly sign?: CaptureSigner | undefined;
  /** Default: SMTP to 127.0.0.1:injectPort with the internal credential. */
  readonly inject?: Injector | undefined;
  /** The worker's group commit (see AttemptDeps.writes). */
  readonly writes?: Pick<WriteBatcher, 'run'> | undefined;
  /** OUTBOUND_SENDER=worker: the worker's own sender (AttemptDeps.direct). */
  readonly direct?: DirectDeps | undefined;
}

/** What both send handlers hand `attemptSend`, built once per handler and completed per job. */
function attemptDepsOf(
  deps: SendJobDeps,
): (logger: Logger, signal: AbortSignal | undefined, jobId: string) => AttemptDeps {
  const inject = injectorOf(deps);
  const unsubKey = unsubscribeKey(deps.config.secretKey);
  const rawStore = rawStoreFor(deps.db, deps.config.dataDir);
  return (logger, signal, jobId) => ({
    db: deps.db,
    writes: deps.writes,
    inject,
    logger,
    signal,
    baseUrl: deps.config.baseUrl,
    unsubscribeKey: unsubKey,
    local: { rawStore, sign: deps.sign },
    node: deps.config.nodeName,
    direct: deps.direct,
    jobId,
  });
}

function injectorOf(deps: SendJobDeps): Injector {
  return (
    deps.inject ??
    createInjector({
      port: deps.config.injectPort,
      secretKey: deps.config.secretKey,
      hostname: deps.config.mailHostname,
    })
  );
}

/**
 * `email-send`: one hand-off attempt per run. The MTA unreachable (or a 4xx)
 * throws, so the runner retries with backoff; the attempt that spends the
 * budget parks the message on `email-send:failed` instead and completes.
 */
export function createEmailSendHandler(deps: SendJobDeps): JobHandler {
  const attemptDeps = attemptDepsOf(deps);
  return async (job, ctx) => {
    const payload = parseEmailSendPayload(job.payload);
    if (!payload) throw new PermanentJobError('email-send payload is not {emailId}');
    if (payload.deferred !== undefined) {
      const attempt = attemptDeps(ctx.logger.child({ module: 'emails' }), ctx.signal, job.id);
      if (attempt.direct === undefined) {
        // Written by the worker's sender before a switch back to the MTA: the MTA takes them.
        const handed = await deferredToMta(attempt, payload.emailId, payload.recipients, (attempts) =>
          resendJob(payload.emailId, attempts),
        );
        if (!handed)
          attempt.logger.info({
            event: 'email_send_skipped',
            emailId: payload.emailId,
            reason: 'no deferred recipient left',
          });
        return;
      }
      await retryDeferred(
        { ...attempt, direct: attempt.direct },
        payload.emailId,
        payload.deferred,
        payload.recipients,
      );
      return;
    }
    const budget = attemptBudget(job.maxAttempts);
    const resend = payload.resend === true;
    const plan: TransientPlan =
      job.attempts >= budget
        ? { kind: 'park', job: stagedSendJob(payload.emailId, 1, new Date(), resend) }
        : { kind: 'retry' };
    const logger = ctx.logger.child({ module: 'emails' });
    const result = await attemptSend(attemptDeps(logger, ctx.signal, job.id), payload.emailId, plan, {
      resend,
    });
    if (result.kind === 'retry' || result.kind === 'aborted') {
      throw new Error(`hand-off to the MTA failed: ${result.reason}`);
    }
  };
}

/**
 * `email-send:failed`: a slow retry of a parked message. Failing again parks it
 * for the next stage; after the last stage the message is `failed`.
 */
export function createStagedSendHandler(deps: SendJobDeps): JobHandler {
  const attemptDeps = attemptDepsOf(deps);
  return async (job, ctx) => {
    const payload = parseStagedSendPayload(job.payload);
    if (!payload) throw new PermanentJobError('email-send:failed payload is not {emailId, stage}');
    const resend = payload.resend === true;
    const plan: TransientPlan =
      payload.stage < STAGED_RETRY_DELAYS_MS.length
        ? { kind: 'park', job: stagedSendJob(payload.emailId, payload.stage + 1, new Date(), resend) }
        : { kind: 'give-up' };
    const logger = ctx.logger.child({ module: 'emails', stage: payload.stage });
    const result = await attemptSend(attemptDeps(logger, ctx.signal, job.id), payload.emailId, plan, {
      resend,
    });
    if (result.kind === 'aborted') throw new Error(`hand-off to the MTA interrupted: ${result.reason}`);
  };
}
