// Accuracy of the bounce classifier on the real-report corpus (issue 5, item 3).
//   node dist/bench/bounces.js [CORPUS_DIR] [--verbose] [--check]
// Prints kind, status and recipient-count accuracy; --verbose lists every mismatch; --check exits
// non-zero when kind accuracy is below 97 %.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureCorpus, ratio } from '../src/modules/bounces/corpus-accuracy';

const KIND_TARGET = 0.97;

const pct = (n: number, d: number): string => `${(ratio(n, d) * 100).toFixed(1)} % (${n}/${d})`;

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

  const m = await measureCorpus(dir);
  const lines = [
    `corpus: ${dir}`,
    `files: ${m.files}, expected recipients: ${m.expectedRecipients}, classified in ${m.elapsedMs.toFixed(0)} ms`,
    `kind accuracy:            ${pct(m.kindMatched, m.expectedRecipients)}`,
    `status accuracy:          ${pct(m.statusMatched, m.expectedRecipients)}`,
    `recipient-count accuracy: ${pct(m.countMatched, m.files)}`,
    `reason accuracy (info):   ${pct(m.reasonMatched, m.expectedRecipients)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (values.verbose) {
    process.stdout.write(`\nmismatches (${m.mismatches.length}):\n`);
    for (const x of m.mismatches) {
      const at = x.index === null ? '' : `#${x.index} `;
      const diag = x.diagnostic === null ? '' : `  | ${x.diagnostic.slice(0, 160)}`;
      process.stdout.write(`  ${x.file} ${at}${x.field}: expected ${x.expected}, got ${x.actual}${diag}\n`);
    }
  }
  const kind = ratio(m.kindMatched, m.expectedRecipients);
  if (values.check && kind < KIND_TARGET) {
    process.stderr.write(`kind accuracy ${(kind * 100).toFixed(1)} % is below ${KIND_TARGET * 100} %\n`);
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
