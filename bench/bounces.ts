// Accuracy of the bounce classifier on the real-report corpus (issue 5 item 3, issue 22 item 4).
//   node dist/bench/bounces.js [CORPUS_DIR] [--verbose] [--check]
// Prints kind, status and recipient-count accuracy on the whole corpus, then the 5-fold figure
// (tables written on 4/5, scored on the held-out 1/5, rotated; see corpus-folds.ts), then the
// leave-one-MTA-family-out figure (each reporting-MTA family scored with the rows learned from the
// other families), per family, with the confusion pairs; --verbose lists every mismatch; --check
// exits non-zero when the mean k-fold or the pooled family-out kind accuracy is below 97 %.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CorpusAccuracy } from '../src/modules/bounces/corpus-accuracy';
import { loadCorpus, ratio, scoreFiles } from '../src/modules/bounces/corpus-accuracy';
import { classifyReport } from '../src/modules/bounces/classify-report';
import type { HeldOutAccuracy } from '../src/modules/bounces/corpus-folds';
import {
  FOLDS,
  measureFamiliesOut,
  measureFolds,
  measurePublicOnly,
} from '../src/modules/bounces/corpus-folds';

const KIND_TARGET = 0.97;

const pct = (n: number, d: number): string => `${(ratio(n, d) * 100).toFixed(1)} % (${n}/${d})`;

function mismatchLines(m: CorpusAccuracy): string[] {
  return m.mismatches.map((x) => {
    const at = x.index === null ? '' : `#${x.index} `;
    const diag = x.diagnostic === null ? '' : `  | ${x.diagnostic.slice(0, 160)}`;
    return `  ${x.file} ${at}${x.field}: expected ${x.expected}, got ${x.actual}${diag}`;
  });
}

function confusionLines(h: HeldOutAccuracy): string[] {
  if (h.confusions.length === 0) return ['  (none)'];
  return h.confusions.map(
    (c) =>
      `  ${String(c.count).padStart(2)} × expected ${c.expected}, got ${c.actual}: ${c.files.join(', ')}`,
  );
}

function familyLines(h: HeldOutAccuracy): string[] {
  const width = Math.max(...h.groups.map((g) => g.group.length));
  return h.groups.map((g) => {
    const a = g.accuracy;
    const miss = a.expectedRecipients - a.kindMatched;
    return `  ${g.group.padEnd(width)} ${String(a.files).padStart(3)} files, kind ${pct(a.kindMatched, a.expectedRecipients)}${miss > 0 ? ` ← ${miss} miss${miss > 1 ? 'es' : ''}` : ''}, ${g.rowsDisabled} rows held out`;
  });
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { verbose: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } },
  });
  // dist/bench/bounces.js → the repository root is two levels up; the corpus sits beside it.
  const repoRoot = resolve(__dirname, '..', '..');
  const dir = resolve(positionals[0] ?? resolve(repoRoot, '..', 'shared', 'corpus', 'bounces'));
  if (!existsSync(resolve(dir, 'expected.json'))) {
    process.stderr.write(`no corpus at ${dir} (expected.json missing)\n`);
    return 2;
  }

  const corpus = await loadCorpus(dir);
  const m = scoreFiles(corpus, corpus.names, classifyReport);
  const k = measureFolds(corpus);
  const p = measurePublicOnly(corpus);
  const fam = measureFamiliesOut(corpus);
  const lines = [
    `corpus: ${dir}`,
    `files: ${m.files}, expected recipients: ${m.expectedRecipients}, classified in ${m.elapsedMs.toFixed(0)} ms`,
    'whole corpus (tables may have been written on any file):',
    `  kind accuracy:            ${pct(m.kindMatched, m.expectedRecipients)}`,
    `  status accuracy:          ${pct(m.statusMatched, m.expectedRecipients)}`,
    `  recipient-count accuracy: ${pct(m.countMatched, m.files)}`,
    `  reason accuracy (info):   ${pct(m.reasonMatched, m.expectedRecipients)}`,
    `${FOLDS}-fold (rules written on 4/5, scored on the held-out 1/5; split by hash of the file name;`,
    `  ${k.corpusRows} of ${k.totalRows} table rows are corpus-learned and drop out of the fold that alone supports them):`,
    ...k.folds.map(
      (f) =>
        `  fold ${f.fold}: ${String(f.accuracy.files).padStart(3)} files, kind ${pct(f.accuracy.kindMatched, f.accuracy.expectedRecipients)}, ${f.rowsDisabled} rows held out`,
    ),
    `  mean held-out kind accuracy: ${(k.meanKindAccuracy * 100).toFixed(1)} %`,
    `  pooled held-out kind accuracy: ${pct(k.kindMatched, k.expectedRecipients)}`,
    `  held-out confusions (expected → got):`,
    ...confusionLines(k),
    `leave-one-MTA-family-out (${fam.groups.length} families by file name: rules written on every other family,`,
    `  scored on the held-out one; see familyOf in corpus-folds.ts):`,
    ...familyLines(fam),
    `  pooled family-out kind accuracy: ${pct(fam.kindMatched, fam.expectedRecipients)}`,
    `  mean of per-family kind accuracy: ${(fam.meanKindAccuracy * 100).toFixed(1)} %`,
    `  family-out confusions (expected → got):`,
    ...confusionLines(fam),
    `public rows only (every corpus row off, whole corpus): kind ${pct(p.kindMatched, p.expectedRecipients)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (values.verbose) {
    process.stdout.write(
      `\nwhole-corpus mismatches (${m.mismatches.length}):\n${mismatchLines(m).join('\n')}\n`,
    );
    for (const f of k.folds) {
      const kindOnly = { ...f.accuracy, mismatches: f.accuracy.mismatches.filter((x) => x.field === 'kind') };
      process.stdout.write(`\nfold ${f.fold} kind mismatches:\n${mismatchLines(kindOnly).join('\n')}\n`);
    }
  }
  if (values.check && k.meanKindAccuracy < KIND_TARGET) {
    const got = (k.meanKindAccuracy * 100).toFixed(1);
    process.stderr.write(`mean held-out kind accuracy ${got} % is below ${KIND_TARGET * 100} %\n`);
    return 1;
  }
  if (values.check && fam.pooledKindAccuracy < KIND_TARGET) {
    const got = (fam.pooledKindAccuracy * 100).toFixed(1);
    process.stderr.write(`pooled family-out kind accuracy ${got} % is below ${KIND_TARGET * 100} %\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
