import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { WriteBatcher } from '../../db/write-batcher';
import type { EnqueueInput } from '../../jobs/enqueue';
import { enqueue } from '../../jobs/enqueue';
import { isoNow } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { aggregate, attemptStart, formatSmtpResponse } from './delivery-status';
import { recipientStates } from './delivery-reads.repository';
import type { EmailForSend } from './delivery.repository';
import type { RecipientRow } from '../emails';
import * as repo from './delivery.repository';
import { recordEmailEvent } from '../emails';
import type { HandOffAccepted, HandOffFailure, Injector } from './inject-client';
import { classifyHandOffError } from './inject-client';
import { messageBytes } from './message-bytes';
import { verpAddress } from '../../mail/verp-address';
import { BEFORE_HAND_OFF, failMessage, recordSent } from './send-records';
import type { LocalHandOff, LocalHandOffDeps } from './local-hand-off';
import { localAcceptance, prepareLocalHandOff, recordLocalHandOff } from './local-hand-off';
import type { DirectDeps, RecipientOutcome } from './direct-delivery';
import { allHeld, HANDED_OVER, logOutcomes, recordOutcomes } from './direct-delivery';
import { ReleaseJob } from '../../jobs/job-handler';

/** What happens to the message when the MTA could not be reached or answered 4xx. */
export type TransientPlan =
  /** Back to `queued`; the caller throws so the job runner retries with backoff. */
  | { readonly kind: 'retry' }
  /** Back to `queued` and parked: `job` (on `email-send:failed`) is enqueued in the same transaction. */
  | { readonly kind: 'park'; readonly job: EnqueueInput & { readonly runAt: Date } }
  /** Give up: `failed`, `email.failed` per recipient. */
  | { readonly kind: 'give-up' };

export type AttemptResult =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'stopped'; readonly reason: string }
  | { readonly kind: 'sent'; readonly attempt: number; readonly recovered: boolean }
  | { readonly kind: 'failed'; readonly attempt: number; readonly reason: string }
  | { readonly kind: 'retry'; readonly attempt: number; readonly reason: string }
  | { readonly kind: 'parked'; readonly attempt: number; readonly reason: string }
  | { readonly kind: 'exhausted'; readonly attempt: number; readonly reason: string }
  /** The worker stopped mid hand-off; the message stays `processing` and the re-run resumes it. */
  | { readonly kind: 'aborted'; readonly attempt: number; readonly reason: string }
  /** Another attempt started meanwhile; it owns the outcome. */
  | { readonly kind: 'overtaken'; readonly attempt: number };

export interface AttemptDeps {
  readonly db: Kysely<Database>;
  readonly inject: Injector;
  readonly logger: Logger;
  /** BASE_URL, for the account footer's `{{logo_url}}`. */
  readonly baseUrl: string;
  /** `unsubscribeKey(SECRET_KEY)`, for the one-click unsubscribe URL (issue 22 item 5). */
  readonly unsubscribeKey: Buffer;
  /** Test mail's capture and the simulator's reports (issue 21). */
  readonly local: LocalHandOffDeps;
  readonly signal?: AbortSignal | undefined;
  /**
   * The worker's group commit: the attempt's transactions share commits with other
   * jobs' writes. Without it each is a transaction of its own on `db`.
   */
  readonly writes?: Pick<WriteBatcher, 'run'> | undefined;
  /**
   * NODE_NAME of this worker's node: the MTA it injects into runs there (docs/scaling.md,
   * roles), so it is the node that holds the message once the MTA said 250.
   */
  readonly node?: string | undefined;
  /**
   * OUTBOUND_SENDER=worker: the worker's own sender delivers live recipients to their servers,
   * instead of `inject` handing them to the MTA.
   */
  readonly direct?: DirectDeps | undefined;
  /** The `email-send` job running the attempt: the retries it enqueues are keyed by it. */
  readonly jobId?: string | undefined;
}

/** How an attempt treats recipients that are already past the hand-off. */
export interface AttemptScope {
  /**
   * A hand-back (src/modules/nodes/hand-back.ts): some recipients ended on the silent
   * node before it went quiet; the others were put back to `queued`. Send to those only,
   * and do not read the ended ones as the MTA having taken this attempt.
   */
  readonly resend?: boolean | undefined;
}

/** Runs `work` in one transaction, through the group commit when there is one. */
function write<T>(deps: AttemptDeps, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return deps.writes ? deps.writes.run(work) : deps.db.transaction().execute(work);
}

type Start =
  | { readonly kind: 'done'; readonly result: AttemptResult }
  | {
      readonly kind: 'go';
      readonly email: EmailForSend;
      /** Every recipient (the To and Cc headers name them all). */
      readonly recipients: RecipientRow[];
      /** The ones this attempt hands to the MTA (the envelope). */
      readonly pending: RecipientRow[];
      readonly attempt: number;
    };

/**
 * One hand-off of a message to the MTA (issue 4, item 5). Three commits: the
 * decision (re-validation, `processing` with the attempt number), the hand-off
 * itself outside any transaction, then its outcome. Committing `processing`
 * first narrows the at-least-once window to "the MTA said 250 and the worker
 * died before the outcome commit": the re-run finds the message `processing`,
 * and sends it again unless delivery reports show the MTA already had it.
 */
export async function attemptSend(
  deps: AttemptDeps,
  emailId: string,
  plan: TransientPlan,
  scope: AttemptScope = {},
): Promise<AttemptResult> {
  const log = deps.logger;
  const start = await write(deps, (trx) => begin(trx, emailId, scope, deps.node ?? null));
  if (start.kind === 'done') {
    logResult(log, emailId, start.result);
    return start.result;
  }
  const { email, recipients, pending, attempt } = start;

  let raw: Buffer;
  try {
    raw = await messageBytes({
      db: deps.db,
      baseUrl: deps.baseUrl,
      unsubscribeKey: deps.unsubscribeKey,
      email,
      recipients,
    });
  } catch (err) {
    const reason = `message could not be built: ${err instanceof Error ? err.message : String(err)}`;
    const failure: HandOffFailure = {
      transient: false,
      aborted: false,
      reason,
      statusCode: null,
      rejected: [],
    };
    return settle(deps, email, attempt, failure, plan);
  }

  const verp = verpAddress(email.id, email.domain_name);
  let local: LocalHandOff;
  try {
    local = await prepareLocalHandOff(deps.local, email, pending, raw, verp);
  } catch (err) {
    // Signing or a report file failed before any recipient got the message: retry it.
    const reason = `local hand-off failed: ${err instanceof Error ? err.message : String(err)}`;
    const failure: HandOffFailure = {
      transient: true,
      aborted: false,
      reason,
      statusCode: null,
      rejected: [],
    };
    return settle(deps, email, attempt, failure, plan);
  }

  if (deps.direct !== undefined && local.toMta.length > 0) {
    return deliverDirect(deps, deps.direct, { email, pending, attempt, raw, verp, local }, plan);
  }

  let accepted: HandOffAccepted;
  try {
    // Test mail and simulator recipients never reach the MTA: no connection, no MX lookup.
    accepted =
      local.toMta.length === 0
        ? localAcceptance(local, email)
        : await deps.inject({ from: verp, to: local.toMta, raw, signal: deps.signal });
  } catch (err) {
    return settle(deps, email, attempt, classifyHandOffError(err), plan);
  }
  const recorded = await write(deps, async (trx) => {
    const handOff = {
      mtaNode: local.toMta.length > 0 ? (deps.node ?? null) : null,
      node: deps.node ?? null,
      addresses: pending.map((r) => r.address),
    };
    if (!(await recordSent(trx, email, attempt, accepted, handOff))) return false;
    await recordLocalHandOff(trx, email, local);
    return true;
  });
  const result: AttemptResult = recorded
    ? { kind: 'sent', attempt, recovered: false }
    : { kind: 'overtaken', attempt };
  logResult(log, emailId, result, { response: accepted.response, rejected: accepted.rejected.length });
  return result;
}

/**
 * The attempt's delivery by the worker's own sender: signed, delivered, and then the hand-over
 * (`sent`), each server's answer and the retry of what was deferred in one commit. The worker
 * dying between a server's 250 and that commit leaves the message `processing`, and the re-run
 * sends it again: the one duplicate the design allows.
 */
async function deliverDirect(
  deps: AttemptDeps,
  direct: DirectDeps,
  a: {
    readonly email: EmailForSend;
    readonly pending: RecipientRow[];
    readonly attempt: number;
    readonly raw: Buffer;
    readonly verp: string;
    readonly local: LocalHandOff;
  },
  plan: TransientPlan,
): Promise<AttemptResult> {
  const { email, attempt, local } = a;
  let signed: Buffer;
  try {
    signed = await direct.sign(email, a.raw);
  } catch (err) {
    const reason = `DKIM signing failed: ${err instanceof Error ? err.message : String(err)}`;
    return settle(
      deps,
      email,
      attempt,
      { transient: true, aborted: false, reason, statusCode: null, rejected: [] },
      plan,
    );
  }
  const outcomes = await direct.sender.send({ from: a.verp, to: local.toMta, message: signed });
  const recorded = await write(deps, async (trx) => {
    const handOff = { mtaNode: null, node: deps.node ?? null, addresses: a.pending.map((r) => r.address) };
    // Spec: `sent` carries the SMTP response; the server that took the message gave it.
    const took = outcomes.find((o) => o.outcome === 'delivered');
    const response = took === undefined ? HANDED_OVER : formatSmtpResponse(took);
    const accepted = { response, accepted: local.toMta, rejected: [] };
    if (!(await recordSent(trx, email, attempt, accepted, handOff))) return undefined;
    await recordLocalHandOff(trx, email, local);
    return recordOutcomes(trx, email, outcomes, 1, {
      retryIntervalsS: direct.retryIntervalsS,
      node: deps.node,
      jobId: deps.jobId ?? email.id,
    });
  });
  if (recorded === undefined) {
    const result: AttemptResult = { kind: 'overtaken', attempt };
    logResult(deps.logger, email.id, result);
    return result;
  }
  const result: AttemptResult = { kind: 'sent', attempt, recovered: false };
  logResult(deps.logger, email.id, result, { recipients: outcomes.length });
  logOutcomes(deps.logger, recorded);
  return result;
}

/**
 * The retry of a message's deferred recipients after delivery attempt `deliveries`, by the
 * worker's own sender: the message as the first attempt built it (the same fields, the same
 * Message-ID), to the recipients still `deferred`, their answers recorded in one commit.
 * With `only` (the job's own recipients: a group pacing held, or mail taken over from an old
 * Haraka queue): those of the listed recipients still `sent` or `deferred`.
 * Throws (the job retries) only when the message cannot be built, signed or recorded; throws
 * ReleaseJob when every recipient's destination is held: the job runs again when the first
 * opens, with no attempt spent (src/jobs/release.ts).
 */
export async function retryDeferred(
  deps: AttemptDeps & { readonly direct: DirectDeps },
  emailId: string,
  deliveries: number,
  /** The job's own recipients (its payload); absent (a job from before pacing): every deferred one. */
  only?: readonly string[],
): Promise<void> {
  const log = deps.logger;
  const email = await repo.findEmailForSend(deps.db, emailId);
  if (!email) return;
  const recipients = await repo.listRecipients(deps.db, emailId);
  const listed = only === undefined ? undefined : new Set(only.map((a) => a.toLowerCase()));
  const deferred = recipients
    .filter((r) =>
      listed === undefined
        ? r.status === 'deferred'
        : listed.has(r.address.toLowerCase()) && (r.status === 'deferred' || r.status === 'sent'),
    )
    .map((r) => r.address);
  if (deferred.length === 0) {
    log.info({ event: 'email_send_skipped', emailId, reason: 'no deferred recipient left' });
    return;
  }
  const stop =
    email.user_status === 'SUSPENDED'
      ? 'account suspended'
      : email.domain_status !== 'VERIFIED'
        ? 'domain not verified'
        : undefined;
  let outcomes: RecipientOutcome[];
  if (stop !== undefined) {
    const said = { smtpCode: null, enhancedStatus: null, host: null, tls: null };
    outcomes = deferred.map((recipient) => ({ recipient, outcome: 'failed', response: stop, ...said }));
  } else {
    const raw = await messageBytes({
      db: deps.db,
      baseUrl: deps.baseUrl,
      unsubscribeKey: deps.unsubscribeKey,
      email,
      recipients,
    });
    const signed = await deps.direct.sign(email, raw);
    outcomes = await deps.direct.sender.send({
      from: verpAddress(email.id, email.domain_name),
      to: deferred,
      message: signed,
    });
  }
  const releaseAt = allHeld(outcomes);
  const recorded = await write(deps, (trx) =>
    recordOutcomes(
      trx,
      email,
      outcomes,
      deliveries + 1,
      { retryIntervalsS: deps.direct.retryIntervalsS, node: deps.node, jobId: deps.jobId ?? email.id },
      releaseAt === undefined,
    ),
  );
  logOutcomes(log, recorded);
  if (releaseAt !== undefined) {
    throw new ReleaseJob(releaseAt, `every recipient's destination is held: ${outcomes[0]?.response ?? ''}`);
  }
}

/**
 * A retry of deferred recipients (`{emailId, deferred}`, written by the worker's own sender) run
 * by a worker on the deprecated OUTBOUND_SENDER=haraka: its recipients go back to `queued` and a
 * resend hands them to the MTA (the hand-back's job), so switching back loses nothing. False when
 * none of them is still `deferred`.
 */
export async function deferredToMta(
  deps: Pick<AttemptDeps, 'db' | 'writes' | 'node'>,
  emailId: string,
  only: readonly string[] | undefined,
  resend: (attempts: number) => EnqueueInput,
): Promise<boolean> {
  return write(deps as AttemptDeps, async (trx) => {
    const email = await repo.findEmailForSend(trx, emailId);
    if (!email) return false;
    const at = isoNow();
    const moved = await repo.moveRecipients(
      trx,
      emailId,
      // Only `deferred`: a `sent` recipient is the MTA's already (a re-run after the resend).
      { from: ['deferred'], to: 'queued', addresses: only },
      at,
    );
    if (moved.length === 0) return false;
    const state = aggregate(await recipientStates(trx, emailId));
    await repo.updateEmail(trx, emailId, { status: state?.status ?? 'queued', mtaNode: null }, at);
    await recordEmailEvent(trx, {
      emailId,
      userId: email.user_id,
      type: 'queued',
      message: `retry handed to the MTA (OUTBOUND_SENDER=haraka): ${moved.join(', ')}`,
      at,
      node: deps.node ?? null,
    });
    await enqueue(trx, resend(email.attempts));
    return true;
  });
}

/** Re-reads the message and decides, in the transaction that records the decision. */
async function begin(
  trx: Kysely<Database>,
  emailId: string,
  scope: AttemptScope,
  node: string | null,
): Promise<Start> {
  const at = isoNow();
  const email = await repo.findEmailForSend(trx, emailId);
  if (!email) return { kind: 'done', result: { kind: 'skipped', reason: 'not found' } };
  const mode = attemptStart(email.status);
  if (mode === 'skip') return { kind: 'done', result: { kind: 'skipped', reason: `status ${email.status}` } };
  const recipients = await repo.listRecipients(trx, emailId);
  const pending = recipients.filter((r) => BEFORE_HAND_OFF.includes(r.status));

  if (scope.resend === true && pending.length === 0) {
    // A late report from the silent node ended every handed-back recipient meanwhile.
    return { kind: 'done', result: { kind: 'skipped', reason: 'no recipient left to send to' } };
  }
  if (scope.resend !== true && pending.length < recipients.length) {
    // The MTA reported on a recipient, so it took the message (a worker died after its 250, or the
    // 250 was lost on the way back): sending again would duplicate it.
    await recordSent(trx, email, email.attempts, null);
    return { kind: 'done', result: { kind: 'sent', attempt: email.attempts, recovered: true } };
  }
  const stop =
    email.user_status === 'SUSPENDED'
      ? 'account suspended'
      : email.domain_status !== 'VERIFIED' && email.mode !== 'test'
        ? 'domain not verified'
        : undefined;
  if (stop !== undefined) {
    await failMessage(trx, email, { event: 'stopped', message: stop, reason: stop, statusCode: null }, at);
    return { kind: 'done', result: { kind: 'stopped', reason: stop } };
  }

  const attempt = email.attempts + 1;
  if (!(await repo.startAttempt(trx, { emailId, status: email.status, attempts: email.attempts }, at))) {
    return { kind: 'done', result: { kind: 'overtaken', attempt } };
  }
  await repo.moveRecipients(trx, emailId, { from: BEFORE_HAND_OFF, to: 'processing' }, at);
  const note = mode === 'interrupted' ? ' (the previous attempt was interrupted)' : '';
  await recordEmailEvent(trx, {
    emailId,
    userId: email.user_id,
    type: 'processing',
    message: `attempt ${attempt}${note}`,
    at,
    node,
  });
  return {
    kind: 'go',
    email: { ...email, status: 'processing', attempts: attempt },
    recipients,
    pending,
    attempt,
  };
}

/** Records a failed hand-off as the plan says, in one transaction. */
async function settle(
  deps: AttemptDeps,
  email: EmailForSend,
  attempt: number,
  failure: HandOffFailure,
  plan: TransientPlan,
): Promise<AttemptResult> {
  const reason = failure.reason;
  if (failure.aborted) {
    const result: AttemptResult = { kind: 'aborted', attempt, reason };
    logResult(deps.logger, email.id, result);
    return result;
  }
  const result = await write(deps, async (trx): Promise<AttemptResult> => {
    const at = isoNow();
    const current = await repo.findEmail(trx, email.id);
    if (!current || current.status !== 'processing' || current.attempts !== attempt) {
      return { kind: 'overtaken', attempt };
    }
    if (!failure.transient || plan.kind === 'give-up') {
      const message = failure.transient ? `gave up after ${attempt} attempts: ${reason}` : reason;
      await failMessage(
        trx,
        email,
        { event: 'failed', message, reason, statusCode: failure.statusCode, rejected: failure.rejected },
        at,
      );
      return failure.transient ? { kind: 'exhausted', attempt, reason } : { kind: 'failed', attempt, reason };
    }
    await repo.moveRecipients(trx, email.id, { from: ['processing'], to: 'queued' }, at);
    await repo.updateEmail(trx, email.id, { status: 'queued' }, at, {
      status: 'processing',
      attempts: attempt,
    });
    let message = `attempt ${attempt} could not reach the MTA (${reason}); retrying`;
    if (plan.kind === 'park') {
      await enqueue(trx, plan.job);
      message = `attempt ${attempt} could not reach the MTA (${reason}); parked until ${plan.job.runAt.toISOString()}`;
    }
    await recordEmailEvent(trx, { emailId: email.id, userId: email.user_id, type: 'queued', message, at });
    return plan.kind === 'park' ? { kind: 'parked', attempt, reason } : { kind: 'retry', attempt, reason };
  });
  logResult(deps.logger, email.id, result, { statusCode: failure.statusCode });
  return result;
}

/** One log line per attempt outcome (spec: Log events); never the message itself. */
function logResult(
  log: Logger,
  emailId: string,
  r: AttemptResult,
  extra: Record<string, unknown> = {},
): void {
  const base = { emailId, ...extra };
  switch (r.kind) {
    case 'sent':
      log.info({ event: 'email_sent', ...base, attempt: r.attempt, recovered: r.recovered });
      return;
    case 'stopped':
      log.warn({ event: 'email_stopped', ...base, reason: r.reason });
      return;
    case 'failed':
      log.warn({ event: 'email_failed_permanent', ...base, attempt: r.attempt, reason: r.reason });
      return;
    case 'exhausted':
      log.error({ event: 'email_failed_exhausted', ...base, attempt: r.attempt, reason: r.reason });
      return;
    case 'parked':
      log.warn({ event: 'email_staged_retry', ...base, attempt: r.attempt, reason: r.reason });
      return;
    case 'retry':
      log.warn({ event: 'email_send_retry', ...base, attempt: r.attempt, reason: r.reason });
      return;
    case 'aborted':
      log.warn({ event: 'email_send_aborted', ...base, attempt: r.attempt, reason: r.reason });
      return;
    case 'overtaken':
      log.warn({ event: 'email_send_overtaken', ...base, attempt: r.attempt });
      return;
    case 'skipped':
      log.info({ event: 'email_send_skipped', ...base, reason: r.reason });
      return;
  }
}
