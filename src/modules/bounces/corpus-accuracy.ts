// Measures the classifier against a corpus of real reports with expected readings (the layout of
// ../shared/corpus/bounces: emails/*.eml and expected.json). Shared by the benchmark and its test.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BounceResult } from '../../mail/reply-classifier/bounce-result';
import { classifyReport } from './classify-report';

export interface ExpectedReading {
  readonly status: string;
  readonly replyCode: string;
  readonly reason: string;
  readonly hardBounce: boolean;
  readonly kind: string;
}

export interface Mismatch {
  readonly file: string;
  /** 1-based position of the expected recipient, or null for a count mismatch. */
  readonly index: number | null;
  readonly field: 'kind' | 'status' | 'count';
  readonly expected: string;
  readonly actual: string;
  readonly diagnostic: string | null;
}

export interface CorpusAccuracy {
  readonly files: number;
  readonly expectedRecipients: number;
  /** Expected recipients whose paired result has the expected kind. */
  readonly kindMatched: number;
  /** Expected recipients whose paired result has the expected status (see statusMatches). */
  readonly statusMatched: number;
  /** Files whose number of results equals the number of expected recipients. */
  readonly countMatched: number;
  /** Expected recipients whose paired result has the expected fine-grained reason (informative). */
  readonly reasonMatched: number;
  readonly elapsedMs: number;
  readonly mismatches: readonly Mismatch[];
}

export const ratio = (n: number, d: number): number => (d === 0 ? 1 : n / d);

/**
 * The corpus writes X.0.9NN for a reading that had no status code in the report (an internal code
 * of the tool that produced it, not RFC 3463) and "" for none at all: both match a null status, and
 * X.0.9NN also matches the class-only X.0.0 of the same class.
 */
export function statusMatches(expected: string, actual: string | null): boolean {
  if (/^[245]\.0\.9\d\d$/.test(expected)) return actual === null || actual === `${expected[0] ?? ''}.0.0`;
  if (expected === '') return actual === null;
  return actual === expected;
}

export async function loadExpected(dir: string): Promise<Record<string, ExpectedReading[]>> {
  const parsed: unknown = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8'));
  return parsed as Record<string, ExpectedReading[]>;
}

export interface Corpus {
  /** File names (sorted) that have an expected reading. */
  readonly names: readonly string[];
  readonly raws: ReadonlyMap<string, Buffer>;
  readonly expected: Readonly<Record<string, ExpectedReading[]>>;
}

export async function loadCorpus(dir: string): Promise<Corpus> {
  const expected = await loadExpected(dir);
  const names = (await readdir(join(dir, 'emails')))
    .filter((n) => n.endsWith('.eml') && n in expected)
    .sort();
  const raws = await Promise.all(names.map((n) => readFile(join(dir, 'emails', n))));
  return { names, raws: new Map(names.map((n, i) => [n, raws[i] ?? Buffer.alloc(0)])), expected };
}

/** Classifies every expected file and pairs results with expected entries by position. */
export async function measureCorpus(dir: string): Promise<CorpusAccuracy> {
  const corpus = await loadCorpus(dir);
  return scoreFiles(corpus, corpus.names, classifyReport);
}

/** Classifies `names` of the corpus with `classify` and scores the readings. */
export function scoreFiles(
  corpus: Corpus,
  names: readonly string[],
  classify: (raw: Buffer) => BounceResult[],
): CorpusAccuracy {
  const { expected } = corpus;
  const started = process.hrtime.bigint();
  const results: BounceResult[][] = names.map((n) => classify(corpus.raws.get(n) ?? Buffer.alloc(0)));
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;

  let expectedRecipients = 0;
  let kindMatched = 0;
  let statusMatched = 0;
  let countMatched = 0;
  let reasonMatched = 0;
  const mismatches: Mismatch[] = [];
  names.forEach((file, f) => {
    const want = expected[file] ?? [];
    const got = results[f] ?? [];
    if (want.length === got.length) countMatched++;
    else
      mismatches.push({
        file,
        index: null,
        field: 'count',
        expected: String(want.length),
        actual: String(got.length),
        diagnostic: null,
      });
    want.forEach((w, i) => {
      expectedRecipients++;
      const r = got[i];
      if (r?.kind === w.kind) kindMatched++;
      else
        mismatches.push({
          file,
          index: i + 1,
          field: 'kind',
          expected: `${w.kind} (${w.reason})`,
          actual: r === undefined ? 'none' : `${r.kind} (${r.reason})`,
          diagnostic: r?.diagnostic ?? null,
        });
      if (statusMatches(w.status, r?.status ?? null)) statusMatched++;
      else
        mismatches.push({
          file,
          index: i + 1,
          field: 'status',
          expected: w.status,
          actual: r?.status ?? 'null',
          diagnostic: r?.diagnostic ?? null,
        });
      if (r?.reason === w.reason) reasonMatched++;
    });
  });
  return {
    files: names.length,
    expectedRecipients,
    kindMatched,
    statusMatched,
    countMatched,
    reasonMatched,
    elapsedMs,
    mismatches,
  };
}
