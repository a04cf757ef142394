import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { measureCorpus, ratio, statusMatches } from '../../../src/modules/bounces/corpus-accuracy';

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
