import type { DomainStatus } from '../../db/schema';
import type { RequiredOutcome } from './domain-verification';

export type VerificationTrigger = 'api' | 'recheck';

export interface DomainState {
  readonly status: DomainStatus;
  readonly verifiedAt: string | null;
  readonly nextCheckAt: string | null;
  readonly lookupFailures: number;
}

export interface Transition extends DomainState {
  /** A verified domain lost verified status: sending stops, the customer must verify again. */
  readonly regressed: boolean;
}

/**
 * Re-checks in a row whose required lookups all failed before a verified domain
 * regresses anyway: at a quarter interval apart that is about one interval of
 * DNS that never answers (a lame delegation, an expired zone), not a blip.
 */
export const MAX_RECHECK_LOOKUP_FAILURES = 4;

/** How soon a re-check that could not resolve the records tries again. */
export function lookupRetryMs(intervalS: number): number {
  const intervalMs = intervalS * 1000;
  return Math.max(intervalMs / 4, Math.min(intervalMs, 60_000));
}

/**
 * The domain's state after a verification attempt (docs/domains.md, "Status").
 * - pass: VERIFIED; re-checked one interval later.
 * - fail (a required record is missing or wrong): a VERIFIED domain becomes FAILED
 *   (regressed); PENDING and FAILED stay as they are.
 * - unknown (DNS did not answer): nothing changes on an API attempt; a re-check
 *   keeps the domain verified and retries sooner, up to MAX_RECHECK_LOOKUP_FAILURES.
 */
export function nextDomainState(
  current: DomainState,
  outcome: RequiredOutcome,
  ctx: { readonly trigger: VerificationTrigger; readonly now: Date; readonly intervalS: number },
): Transition {
  const now = ctx.now.getTime();
  const at = (ms: number): string => new Date(now + ms).toISOString();
  const wasVerified = current.status === 'VERIFIED';
  const regress: Transition = {
    status: 'FAILED',
    verifiedAt: null,
    nextCheckAt: null,
    lookupFailures: 0,
    regressed: true,
  };

  if (outcome === 'pass') {
    return {
      status: 'VERIFIED',
      verifiedAt: wasVerified ? (current.verifiedAt ?? ctx.now.toISOString()) : ctx.now.toISOString(),
      nextCheckAt: at(ctx.intervalS * 1000),
      lookupFailures: 0,
      regressed: false,
    };
  }
  if (outcome === 'fail') return wasVerified ? regress : { ...current, regressed: false };

  if (!wasVerified || ctx.trigger === 'api') return { ...current, regressed: false };
  const failures = current.lookupFailures + 1;
  if (failures >= MAX_RECHECK_LOOKUP_FAILURES) return regress;
  return {
    ...current,
    nextCheckAt: at(lookupRetryMs(ctx.intervalS)),
    lookupFailures: failures,
    regressed: false,
  };
}
