// A real logger whose JSON lines land in memory, so a test can assert on the `event`s a
// component logs and on what it never logs.
import { Writable } from 'node:stream';
import type { Logger } from '../../src/shared/logger';
import { createLogger } from '../../src/shared/logger';

export interface CapturedLog {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
  /** Raw text, for "never logged" checks. */
  readonly text: string[];
  events(name: string): Record<string, unknown>[];
}

export interface CaptureOptions {
  /** The `process` field of every line; default `test`. */
  readonly process?: string;
  /** Default `debug`: everything. */
  readonly level?: string;
}

export function captureLog(options: CaptureOptions = {}): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const text: string[] = [];
  const logger = createLogger({
    process: options.process ?? 'test',
    level: options.level ?? 'debug',
    destination: new Writable({
      write(chunk: Buffer, _enc, cb) {
        const s = chunk.toString();
        text.push(s);
        lines.push(JSON.parse(s) as Record<string, unknown>);
        cb();
      },
    }),
  });
  return { logger, lines, text, events: (name) => lines.filter((l) => l.event === name) };
}
