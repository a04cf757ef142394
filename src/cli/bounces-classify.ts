// `ctl bounces classify FILE...`: one JSON line per file, {"file": <path as given>, "results": [...]},
// in argument order. Files are read concurrently; classification is pure and synchronous.
import { readFile } from 'node:fs/promises';
import type { BounceResult } from '../mail/reply-classifier/bounce-result';
import { classifyReport } from '../modules/bounces/classify-report';

/** How many files are read at once; enough to overlap I/O, few enough for any fd limit. */
const READ_CONCURRENCY = 32;

interface FileReading {
  readonly file: string;
  readonly results: readonly BounceResult[];
  readonly error?: string;
}

async function readOne(file: string): Promise<FileReading> {
  try {
    return { file, results: classifyReport(await readFile(file)) };
  } catch (err) {
    return { file, results: [], error: err instanceof Error ? err.message : String(err) };
  }
}

/** Reads every file with at most READ_CONCURRENCY reads in flight, keeping argument order. */
async function readAll(files: readonly string[]): Promise<FileReading[]> {
  const out = new Array<FileReading>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      out[i] = await readOne(files[i] ?? '');
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  return out;
}

function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/**
 * Prints one line per file. A file that cannot be read prints `"results": []` with an `"error"`
 * and makes the command exit non-zero; the other files are still classified.
 */
export async function bouncesClassifyCommand(files: string[]): Promise<void> {
  const readings = await readAll(files);
  if (readings.length > 0) await write(`${readings.map((r) => JSON.stringify(r)).join('\n')}\n`);
  if (readings.some((r) => r.error !== undefined)) process.exitCode = 1;
}
