import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import {
  loadCorpus,
  measureCorpus,
  ratio,
  statusMatches,
} from '../../../src/modules/bounces/corpus-accuracy';
import { FOLDS, foldOf, measureFolds } from '../../../src/modules/bounces/corpus-folds';
import { STATUS_PATTERNS, textSays, withRowsDisabled } from '../../../src/modules/bounces/status-patterns';

// dist/test/unit/bounces → the repository root is four levels up; the corpus sits beside it.
const CORPUS = resolve(__dirname, '..', '..', '..', '..', '..', 'shared', 'corpus', 'bounces');
const KIND_TARGET = 0.97;

describe('accuracy on the real-report corpus (issue 5, item 3)', () => {
  it('counts corpus-internal X.0.9NN codes as "no code in the report"', () => {
    assert.equal(statusMatches('5.0.911', null), true);
    assert.equal(statusMatches('5.0.911', '5.0.0'), true);
    assert.equal(statusMatches('5.0.911', '5.1.1'), false);
    assert.equal(statusMatches('', null), true);
    assert.equal(statusMatches('5.1.1', '5.1.1'), true);
  });

  it(`classifies at least ${KIND_TARGET * 100} % of expected recipients with the expected kind`, async (t) => {
    if (!existsSync(resolve(CORPUS, 'expected.json'))) {
      t.skip(`corpus not found at ${CORPUS}`);
      return;
    }
    const m = await measureCorpus(CORPUS);
    const pct = (n: number, d: number): string => `${(ratio(n, d) * 100).toFixed(1)} % (${n}/${d})`;
    t.diagnostic(`kind accuracy ${pct(m.kindMatched, m.expectedRecipients)}`);
    t.diagnostic(`status accuracy ${pct(m.statusMatched, m.expectedRecipients)}`);
    t.diagnostic(`recipient-count accuracy ${pct(m.countMatched, m.files)}`);
    t.diagnostic(`${m.files} files classified in ${m.elapsedMs.toFixed(0)} ms`);
    assert.ok(m.files > 0);
    assert.ok(
      ratio(m.kindMatched, m.expectedRecipients) >= KIND_TARGET,
      `kind accuracy ${pct(m.kindMatched, m.expectedRecipients)}`,
    );
  });
});

describe('k-fold accuracy on the corpus (issue 22 item 4)', () => {
  it('splits by a hash of the file name: fixed, in range, and roughly even', () => {
    assert.equal(foldOf('lhost-postfix-01.eml'), foldOf('lhost-postfix-01.eml'));
    const counts = new Array<number>(FOLDS).fill(0);
    for (let i = 0; i < 1000; i++) {
      const f = foldOf(`file-${i}.eml`);
      assert.ok(f >= 0 && f < FOLDS);
      counts[f] = (counts[f] ?? 0) + 1;
    }
    for (const c of counts) assert.ok(c > 150 && c < 250, `fold sizes ${counts.join(',')}`);
  });

  it('takes rows out only for the duration of the call', () => {
    const rows = new Set(STATUS_PATTERNS.filter((r) => r.reason === 'mailboxfull'));
    assert.equal(textSays('mailboxfull', 'mailbox full'), true);
    assert.equal(
      withRowsDisabled(rows, () => textSays('mailboxfull', 'mailbox full')),
      false,
    );
    assert.equal(textSays('mailboxfull', 'mailbox full'), true);
  });

  it(`scores at least ${KIND_TARGET * 100} % mean kind accuracy on held-out folds`, async (t) => {
    if (!existsSync(resolve(CORPUS, 'expected.json'))) {
      t.skip(`corpus not found at ${CORPUS}`);
      return;
    }
    const k = measureFolds(await loadCorpus(CORPUS));
    for (const f of k.folds) {
      const a = f.accuracy;
      t.diagnostic(
        `fold ${f.fold}: ${a.kindMatched}/${a.expectedRecipients}, ${f.rowsDisabled} rows held out`,
      );
    }
    t.diagnostic(`mean held-out kind accuracy ${(k.meanKindAccuracy * 100).toFixed(1)} %`);
    assert.equal(k.folds.length, FOLDS);
    assert.ok(
      k.folds.some((f) => f.rowsDisabled > 0),
      'some corpus rows are held out',
    );
    assert.ok(k.meanKindAccuracy >= KIND_TARGET, `mean ${(k.meanKindAccuracy * 100).toFixed(1)} %`);
  });

  it('is what `npm run bench:bounces -- --check` prints, and the check passes', (t) => {
    if (!existsSync(resolve(CORPUS, 'expected.json'))) {
      t.skip(`corpus not found at ${CORPUS}`);
      return;
    }
    // dist/test/unit/bounces → dist/bench/bounces.js
    const bench = resolve(__dirname, '..', '..', '..', 'bench', 'bounces.js');
    const run = spawnSync(process.execPath, [bench, CORPUS, '--check'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /whole corpus/);
    assert.match(run.stdout, /5-fold \(rules written on 4\/5, scored on the held-out 1\/5/);
    for (let k = 0; k < FOLDS; k++) assert.match(run.stdout, new RegExp(`fold ${k}: `));
    assert.match(run.stdout, /mean held-out kind accuracy: \d+\.\d %/);
  });
});
