// A runner for the real `dist/src/mta/main.js` that collects its stdout and stderr.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './appliance';

const MTA_MAIN = path.join(REPO_ROOT, 'dist', 'src', 'mta', 'main.js');

export interface MtaProcess {
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function collectLines(stream: NodeJS.ReadableStream, into: string[]): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      into.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
}

/** The parsed stdout line carrying `event`, if any line does. */
export function findEvent(lines: readonly string[], event: string): Record<string, unknown> | undefined {
  for (const line of lines) {
    if (!line.includes(`"${event}"`)) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed.event === event) return parsed;
  }
  return undefined;
}

/**
 * Starts `node dist/src/mta/main.js` with exactly `env` and waits for its `mta_ready` line.
 * OUTBOUND_SENDER is `haraka` unless `env` says otherwise: the mta-level tests drive Haraka's
 * outbound through its injection listener (the deprecated path, issue 31).
 */
export async function startMta(env: Record<string, string>, timeoutMs = 20_000): Promise<MtaProcess> {
  const child = spawn(process.execPath, [MTA_MAIN], {
    env: { OUTBOUND_SENDER: 'haraka', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  collectLines(child.stdout, stdout);
  collectLines(child.stderr, stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const mta = { child, stdout, stderr, exited };
  const deadline = Date.now() + timeoutMs;
  while (findEvent(stdout, 'mta_ready') === undefined) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mta did not become ready:\n${[...stdout, ...stderr].slice(-30).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return mta;
}
