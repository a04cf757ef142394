import { spawn } from 'node:child_process';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { Logger } from '../shared/logger';
import { mapHarakaLine } from './haraka-log';
import { probeSmtp } from './probe';

export interface HarakaExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface HarakaChild {
  readonly pid: number | undefined;
  /** Settles once Haraka has exited and its output is fully logged. */
  readonly exited: Promise<HarakaExit>;
  /** Graceful stop (SIGINT); SIGKILL if it is still running after `killAfterMs`. */
  stop(killAfterMs: number): Promise<HarakaExit>;
}

/** Haraka's CLI; `-c <dir>` runs the server on that base directory. */
export const HARAKA_BIN = require.resolve('Haraka/bin/haraka');

function logLines(stream: Readable, name: 'stdout' | 'stderr', log: Logger): void {
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const mapped = mapHarakaLine(line, name);
    if (mapped !== undefined) log[mapped.level](mapped.fields, mapped.msg);
  });
}

/**
 * Runs Haraka as a child process (it installs process-wide handlers, so it gets
 * a process of its own) and turns its output into our log lines.
 *
 * - SIGINT, not SIGTERM, is Haraka's graceful stop: bin/haraka only handles
 *   SIGTERM when it is PID 1, otherwise SIGTERM kills it outright.
 * - `detached`: Haraka gets its own process group, so a Ctrl-C on a terminal
 *   reaches only us and Haraka sees ONE SIGINT (a second one makes it exit(1)
 *   at once, skipping the graceful path).
 * - The IPC channel lets the mailroom-process plugin notice that we are gone
 *   (crash, SIGKILL) and exit, instead of lingering on the ports.
 */
export function spawnHaraka(harakaDir: string, logger: Logger): HarakaChild {
  const log = logger.child({ module: 'haraka' });
  const child = spawn(process.execPath, [HARAKA_BIN, '-c', harakaDir], {
    cwd: harakaDir,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  // Typed nullable because of the 'ipc' slot; 'pipe' always provides them.
  if (child.stdout === null || child.stderr === null)
    throw new Error('Haraka spawned without stdout/stderr pipes');
  logLines(child.stdout, 'stdout', log);
  logLines(child.stderr, 'stderr', log);

  // 'close' rather than 'exit': it comes after the stdio streams end, so the last
  // lines Haraka wrote are logged before anyone acts on its exit.
  const exited = new Promise<HarakaExit>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => {
      log.error({ event: 'mta_spawn_failed', err }, 'could not start Haraka');
      resolve({ code: null, signal: null });
    });
  });

  let stopping: Promise<HarakaExit> | undefined;
  const stop = (killAfterMs: number): Promise<HarakaExit> => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGINT');
      const killer = setTimeout(() => {
        log.warn(
          { event: 'mta_haraka_killed', afterMs: killAfterMs },
          'Haraka did not stop in time; SIGKILL',
        );
        child.kill('SIGKILL');
      }, killAfterMs);
      try {
        return await exited;
      } finally {
        clearTimeout(killer);
      }
    })();
    return stopping;
  };

  return { pid: child.pid, exited, stop };
}

/**
 * Polls an SMTP listener until it greets with 220, `gone` settles, or
 * `timeoutMs` passes. Used on the injection listener: Haraka binds its
 * listeners in `listen` order after loading every plugin, so a greeting there
 * means the whole MTA is up.
 */
export async function waitForGreeting(
  host: string,
  port: number,
  timeoutMs: number,
  gone: Promise<unknown>,
): Promise<{ ok: true; banner: string } | { ok: false; error: string }> {
  let over = false;
  void gone.then(() => {
    over = true;
  });
  const deadline = Date.now() + timeoutMs;
  let error = 'not tried';
  while (!over && Date.now() < deadline) {
    const result = await probeSmtp(host, port, 1_000);
    if (result.ok) return result;
    error = result.error;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ok: false, error: over ? 'Haraka exited' : error };
}
