// One row of the diagnostic pattern table (status-patterns.ts, policy-patterns.ts).
import type { BounceReason } from './bounce-result';

export interface StatusPattern {
  readonly reason: BounceReason;
  /** Runs on lower-cased, whitespace-collapsed diagnostic text. */
  readonly pattern: RegExp;
  /** A real-world wording the row is meant for; the unit tests classify each one. */
  readonly example: string;
  /**
   * A wording that settles the reason wherever in the dialogue it came, because only a directory
   * lookup of the recipient produces it (e.g. Domino's "not listed in Domino Directory").
   */
  readonly decisive: boolean;
}

export function row(reason: BounceReason, pattern: RegExp, example: string): StatusPattern {
  return { reason, pattern, example, decisive: false };
}

/** A row whose wording is decisive (see StatusPattern.decisive). */
export function sure(reason: BounceReason, pattern: RegExp, example: string): StatusPattern {
  return { reason, pattern, example, decisive: true };
}
