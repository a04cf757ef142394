// One row of the diagnostic pattern table (status-patterns.ts and its topic files).
import type { BounceReason } from './bounce-result';

/**
 * Where a row's wording comes from. Rows from a public, documented catalogue of real MTA replies
 * cite it: `sisimai` (the reason tables of the Sisimai project, lib/Sisimai/Reason/*.pm,
 * BSD-2-Clause), `zonemta` (ZoneMTA's config/bounces.txt), `haraka` (Haraka's outbound and plugin
 * replies) or `rfc3463` (the wording of an RFC 3463 / IANA registry code). `corpus` marks a row
 * written while studying the real-report corpus: the k-fold measurement (corpus-folds.ts) counts
 * it as learned from the corpus files whose diagnostics it matches, and drops it when scoring a
 * fold that holds all of them.
 */
export type RowSource = 'sisimai' | 'zonemta' | 'haraka' | 'rfc3463' | 'corpus';

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
  readonly source: RowSource;
}

export function row(
  reason: BounceReason,
  pattern: RegExp,
  example: string,
  source: RowSource = 'corpus',
): StatusPattern {
  return { reason, pattern, example, decisive: false, source };
}

/** A row whose wording is decisive (see StatusPattern.decisive). */
export function sure(
  reason: BounceReason,
  pattern: RegExp,
  example: string,
  source: RowSource = 'corpus',
): StatusPattern {
  return { reason, pattern, example, decisive: true, source };
}
