// The worker entry point (dist/src/worker/main.js) as its own process, as the supervisor
// and the container run it, with its JSON log lines collected.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';

const MAIN = path.join(__dirname, '../../src/worker/main.js');

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Every JSON line it wrote to stdout so far. */
  readonly lines: Record<string, unknown>[];
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  // Only what the worker needs: a stray DATABASE_URL or SECRET_KEY from the outer shell must not leak in.
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', ...env } });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  child.stderr.resume();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, exit };
}
