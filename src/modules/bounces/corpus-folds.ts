// Honest accuracy for hand-written tables (issue 22 item 4): a k-fold split of the corpus where
// the rows learned from a fold are taken out before that fold is scored. Rows sourced from a
// public catalogue (sisimai, ZoneMTA, Haraka, RFC 3463) carry their own examples and stay in every
// fold; a `corpus` row counts as learned from the corpus recipients whose diagnostic it matches
// and whose expected kind agrees with the row's, so a fold is scored without every corpus row that
// no other fold supports — as if the tables had been written on the other four folds only.
import { createHash } from 'node:crypto';
import type { BounceResult } from './bounce-result';
import { classifyReport } from './classify-report';
import type { Corpus, CorpusAccuracy } from './corpus-accuracy';
import { scoreFiles } from './corpus-accuracy';
import type { StatusPattern } from './pattern-row';
import { normaliseDiagnostic, STATUS_PATTERNS, withRowsDisabled } from './status-patterns';

export const FOLDS = 5;

/** The fold of a corpus file: a hash of its name, so the split is fixed and needs no seed. */
export function foldOf(name: string, folds = FOLDS): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0) % folds;
}

const HARD_REASONS = new Set(['userunknown', 'hostunknown', 'hasmoved', 'notaccept']);

/** The kind a row's reason argues for (notaccept is hard when permanent, as it is in the corpus). */
const rowKind = (r: StatusPattern): string => (HARD_REASONS.has(r.reason) ? 'hard' : 'soft');

/** For each corpus-sourced row, the files whose readings support it (see the header comment). */
export function rowSupport(corpus: Corpus): Map<StatusPattern, Set<string>> {
  const support = new Map<StatusPattern, Set<string>>();
  const learned = STATUS_PATTERNS.filter((r) => r.source === 'corpus');
  for (const r of learned) support.set(r, new Set());
  for (const name of corpus.names) {
    const results = classifyReport(corpus.raws.get(name) ?? Buffer.alloc(0));
    (corpus.expected[name] ?? []).forEach((want, i) => {
      const text = normaliseDiagnostic(results[i]?.diagnostic ?? '');
      if (text === '') return;
      for (const r of learned)
        if (rowKind(r) === want.kind && r.pattern.test(text)) support.get(r)?.add(name);
    });
  }
  return support;
}

export interface FoldResult {
  readonly fold: number;
  readonly accuracy: CorpusAccuracy;
  /** Corpus rows left out because only this fold supports them. */
  readonly rowsDisabled: number;
}

export interface KFoldAccuracy {
  readonly folds: readonly FoldResult[];
  /** Mean over the folds of each fold's kind accuracy. */
  readonly meanKindAccuracy: number;
  /** Corpus-sourced rows / all rows. */
  readonly corpusRows: number;
  readonly totalRows: number;
}

export function measureFolds(corpus: Corpus, folds = FOLDS): KFoldAccuracy {
  const support = rowSupport(corpus);
  const results: FoldResult[] = [];
  for (let k = 0; k < folds; k++) {
    const heldOut = corpus.names.filter((n) => foldOf(n, folds) === k);
    const disabled = new Set<StatusPattern>();
    for (const [r, files] of support) {
      // A row no file supports was not learned from the corpus; it stays (dropping it could only
      // hide its misfires).
      if (files.size > 0 && ![...files].some((f) => foldOf(f, folds) !== k)) disabled.add(r);
    }
    const classify = (raw: Buffer): BounceResult[] => withRowsDisabled(disabled, () => classifyReport(raw));
    results.push({ fold: k, accuracy: scoreFiles(corpus, heldOut, classify), rowsDisabled: disabled.size });
  }
  const kind = (a: CorpusAccuracy): number =>
    a.expectedRecipients === 0 ? 1 : a.kindMatched / a.expectedRecipients;
  return {
    folds: results,
    meanKindAccuracy: results.reduce((s, f) => s + kind(f.accuracy), 0) / results.length,
    corpusRows: support.size,
    totalRows: STATUS_PATTERNS.length,
  };
}

/**
 * The whole corpus scored with every `corpus` row off: what the public tables and the code alone
 * read. A floor for the tables' contribution, printed beside the k-fold figure.
 */
export function measurePublicOnly(corpus: Corpus): CorpusAccuracy {
  const off = new Set(STATUS_PATTERNS.filter((r) => r.source === 'corpus'));
  return scoreFiles(corpus, corpus.names, (raw) => withRowsDisabled(off, () => classifyReport(raw)));
}
