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
import {
  familyOf,
  FOLDS,
  foldOf,
  heldOutSplits,
  measureFamiliesOut,
  measureFolds,
  rowsNotLearnedFrom,
} from '../../../src/modules/bounces/corpus-folds';
import type { StatusPattern } from '../../../src/mail/reply-classifier/pattern-row';
import {
  STATUS_PATTERNS,
  textSays,
  withRowsDisabled,
} from '../../../src/mail/reply-classifier/status-patterns';

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
    assert.match(run.stdout, /leave-one-MTA-family-out \(\d+ families/);
    assert.match(run.stdout, /pooled family-out kind accuracy: \d+\.\d %/);
  });
});

describe('leave-one-MTA-family-out accuracy (issue 35 item 3)', () => {
  it('groups files by the name of the software that wrote them', () => {
    assert.equal(familyOf('lhost-postfix-17.eml'), 'lhost-postfix');
    assert.equal(familyOf('rhost-google-03.eml'), 'rhost-google');
    assert.equal(familyOf('rfc3464-05.eml'), 'rfc3464');
    assert.equal(familyOf('lhost-x1-02.eml'), 'lhost-x1');
    assert.equal(familyOf('single.eml'), 'single');
  });

  it("never lets a split's training set contain its test family", () => {
    const names = ['lhost-a-01.eml', 'lhost-a-02.eml', 'lhost-b-01.eml', 'rfc3464-01.eml', 'rfc3464-02.eml'];
    const splits = heldOutSplits(names, familyOf);
    assert.deepEqual(
      splits.map((s) => s.group),
      ['lhost-a', 'lhost-b', 'rfc3464'],
    );
    for (const s of splits) {
      assert.ok(s.test.length > 0);
      assert.ok(s.test.every((n) => familyOf(n) === s.group));
      assert.ok(
        s.train.every((n) => familyOf(n) !== s.group),
        `${s.group} leaked into its training set`,
      );
      assert.equal(s.test.length + s.train.length, names.length);
    }
  });

  it('switches off exactly the rows supported by the held-out family alone', () => {
    const [a, b, c] = STATUS_PATTERNS.filter((r) => r.source === 'corpus');
    assert.ok(a !== undefined && b !== undefined && c !== undefined);
    const support = new Map<StatusPattern, Set<string>>([
      [a, new Set(['lhost-a-01.eml', 'lhost-a-02.eml'])],
      [b, new Set(['lhost-a-01.eml', 'lhost-b-01.eml'])],
      [c, new Set()],
    ]);
    const [held] = heldOutSplits(['lhost-a-01.eml', 'lhost-a-02.eml', 'lhost-b-01.eml'], familyOf);
    assert.equal(held?.group, 'lhost-a');
    const off = rowsNotLearnedFrom(support, held?.train ?? []);
    assert.deepEqual([...off], [a]);
  });

  it(`scores at least ${KIND_TARGET * 100} % pooled kind accuracy with each family held out`, async (t) => {
    if (!existsSync(resolve(CORPUS, 'expected.json'))) {
      t.skip(`corpus not found at ${CORPUS}`);
      return;
    }
    const h = measureFamiliesOut(await loadCorpus(CORPUS));
    t.diagnostic(`pooled family-out kind accuracy ${(h.pooledKindAccuracy * 100).toFixed(1)} %`);
    for (const c of h.confusions) t.diagnostic(`${c.count} × ${c.expected} → ${c.actual}`);
    assert.ok(h.groups.length > 20, `${h.groups.length} families`);
    assert.equal(
      h.expectedRecipients,
      h.groups.reduce((s, g) => s + g.accuracy.expectedRecipients, 0),
    );
    assert.ok(h.pooledKindAccuracy >= KIND_TARGET, `pooled ${(h.pooledKindAccuracy * 100).toFixed(1)} %`);
  });
});
