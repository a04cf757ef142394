import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/schema';
import type { Logger } from '../../shared/logger';
import { findUserById } from '../accounts';
import { suspendAccount } from '../accounts';
import { recordAudit, systemActor } from '../audit';
import * as repo from './abuse.repository';
import type { Signal, SignalName } from './signals';
import { describeFiring, evaluateSignals, firingNames, suspensionGrounds } from './signals';

const DAY_MS = 86_400_000;

export interface HealthSignals {
  readonly evaluatedAt: string;
  /** Names of the signals that fire now. */
  readonly firing: readonly SignalName[];
  readonly signals: readonly Signal[];
}

/** `GET /v1/stats/health-signals`: the account's signals computed now. */
export async function accountHealthSignals(deps: {
  readonly db: Kysely<Database>;
  readonly userId: string;
  readonly now?: Date | undefined;
}): Promise<HealthSignals> {
  const now = deps.now ?? new Date();
  const signals = evaluateSignals(await repo.signalInputs(deps.db, deps.userId, { now }));
  return { evaluatedAt: now.toISOString(), firing: firingNames(signals), signals };
}

export type EvaluationOutcome =
  | { readonly kind: 'skipped'; readonly reason: 'no such account' | 'suspended' }
  | {
      readonly kind: 'evaluated';
      readonly firing: readonly SignalName[];
      /** An `abuse.signals_detected` entry and an `abuse_signals` line were written. */
      readonly recorded: boolean;
      readonly suspended: boolean;
    };

function signalSummary(signals: readonly Signal[]) {
  return signals
    .filter((s) => s.fires)
    .map((s) => ({ name: s.name, value: s.value, threshold: s.threshold, window: s.window, basis: s.basis }));
}

/**
 * One abuse evaluation of an account (spec: Limits, abuse signal thresholds).
 * A signal that starts firing is recorded: `abuse.signals_detected` in the audit
 * log (actor system) and the `abuse_signals` log line; one that keeps firing is
 * recorded again once a day, not on every evaluation. With ABUSE_AUTO_SUSPEND the
 * account is suspended (`user.suspended`, its queued mail stopped), unless the
 * evidence predates an operator's reinstatement: after one, only messages since
 * count towards an automatic suspension, or reinstating would be undone at once.
 * Idempotent: a re-run finds the signals already recorded and the account suspended.
 */
export async function evaluateAccount(deps: {
  readonly db: Kysely<Database>;
  readonly config: Pick<AppConfig, 'abuseAutoSuspend' | 'abuseMinVolume'>;
  readonly log: Logger;
  readonly userId: string;
  readonly now?: Date | undefined;
}): Promise<EvaluationOutcome> {
  const { db, userId, log } = deps;
  const now = deps.now ?? new Date();
  const user = await findUserById(db, userId);
  if (!user) return { kind: 'skipped', reason: 'no such account' };
  if (user.status === 'SUSPENDED') return { kind: 'skipped', reason: 'suspended' };

  const inputs = await repo.signalInputs(db, userId, { now });
  const signals = evaluateSignals(inputs);
  const firing = firingNames(signals);
  const autoSuspend = deps.config.abuseAutoSuspend;
  const at = now.toISOString();

  const recorded = await db.transaction().execute(async (trx) => {
    const previous = await repo.findAbuseState(trx, userId);
    const before = previous ? (JSON.parse(previous.firing) as SignalName[]) : [];
    const detectedAt = previous?.detected_at ?? null;
    const due =
      firing.length > 0 &&
      (firing.some((name) => !before.includes(name)) ||
        detectedAt === null ||
        now.getTime() - Date.parse(detectedAt) >= DAY_MS);
    await repo.saveAbuseState(trx, {
      user_id: userId,
      firing: JSON.stringify(firing),
      signals: JSON.stringify(signals),
      evaluated_at: at,
      detected_at: due ? at : detectedAt,
    });
    if (due) {
      await recordAudit(trx, {
        actor: systemActor,
        userId,
        action: 'abuse.signals_detected',
        resource: 'user',
        resourceId: userId,
        details: { signals: signalSummary(signals), autoSuspend },
      });
    }
    return due;
  });
  if (recorded) {
    log.warn(
      { event: 'abuse_signals', userId, signals: signalSummary(signals), autoSuspend },
      `abuse signals: ${describeFiring(signals)}`,
    );
  }

  let suspended = false;
  if (autoSuspend && firing.length > 0) {
    let evidence = inputs;
    const reinstatedAt = await repo.lastReinstatedAt(db, userId);
    if (reinstatedAt !== null && now.getTime() - Date.parse(reinstatedAt) < DAY_MS) {
      evidence = await repo.signalInputs(db, userId, { now, notBefore: reinstatedAt });
    }
    const minVolume = deps.config.abuseMinVolume;
    const grounds = suspensionGrounds(evaluateSignals(evidence), evidence, minVolume);
    if (grounds.length > 0) {
      const reason = `automatic: abuse signals ${describeFiring(grounds)}`;
      const account = await suspendAccount({ db, actor: systemActor, ref: userId, reason });
      suspended = true;
      log.warn(
        { event: 'account_suspended', userId, reason, automatic: true, stoppedEmails: account.stoppedEmails },
        'account suspended automatically',
      );
    } else if (recorded) {
      log.info(
        { event: 'abuse_suspension_withheld', userId, firing, attempted: evidence.attempted, minVolume },
        'abuse signals fire below ABUSE_MIN_VOLUME: not suspended automatically',
      );
    }
  }
  return { kind: 'evaluated', firing, recorded, suspended };
}
