import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { format } from 'node:util';
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

/** Haraka's logger module, the part used here (node_modules/Haraka/logger.js). */
interface HarakaLogger {
  log_respond: (retval: number, msg: unknown, data: { level: string; data: string }) => boolean;
  crit(...args: unknown[]): void;
  log(level: string, data: string): void;
  dump_and_exit(codeOrCallback: number | (() => void)): void;
  loginfo: (...args: unknown[]) => unknown;
  info?: (...args: unknown[]) => unknown;
  lognotice: (...args: unknown[]) => unknown;
  notice?: (...args: unknown[]) => unknown;
}

/** A log call of one of our plugins: one of its arguments is a plain object naming an `event`. */
function namesEvent(args: readonly unknown[]): boolean {
  for (const a of args) {
    if (typeof a === 'object' && a !== null && Object.getPrototypeOf(a) === Object.prototype) {
      if (typeof (a as { event?: unknown }).event === 'string') return true;
    }
  }
  return false;
}

/** A routine NOTICE that repeats what our own events record for every relayed message. */
function routineRelayNotice(args: readonly unknown[], injectPort: number | undefined): boolean {
  for (const a of args) {
    if (typeof a !== 'object' || a === null) continue;
    // Haraka's per-delivery summary (outbound/hmail.js delivered()): mta_outcome_delivered says it.
    if (Object.hasOwn(a, 'delivered file')) return true;
    // A session on the injection listener (connect, sender, recipient, message, queue,
    // disconnect): the worker's hand-off, recorded by email_sent and dkim_signed.
    const c = a as { constructor?: { name?: unknown }; local?: { port?: unknown } };
    if (injectPort !== undefined && c.constructor?.name === 'Connection' && c.local?.port === injectPort)
      return true;
  }
  return false;
}

export interface QuietLogOptions {
  /** LOG_LEVEL is debug or trace: everything passes. */
  readonly debug: boolean;
  /** The injection listener's port (MTA_INJECT_PORT). */
  readonly injectPort?: number | undefined;
}

/**
 * Below LOG_LEVEL=debug, drops Haraka's routine per-message records before Haraka
 * formats them (issue 11: each line was formatted, parsed back and written
 * synchronously on the SMTP event loop, eleven per relayed message):
 * - Haraka's own INFO records: one per hook that answered anything but CONT
 *   (`{hook, plugin, retval}`), "Transaction delivery for domain" and the like;
 * - the NOTICE summaries of injection-listener sessions and of each delivery,
 *   which repeat `email_sent`, `dkim_signed` and `mta_outcome_delivered`.
 * Our plugins' records (they name an `event`), Haraka's NOTICEs about the MX and
 * submission listeners and about deferrals and rejections, and every warning and
 * error still pass.
 */
export function quietHarakaLogs(harakaLogger: HarakaLogger, options: QuietLogOptions): void {
  if (options.debug) return;
  const wrap = (name: 'loginfo' | 'info' | 'lognotice' | 'notice', drop: (args: unknown[]) => boolean) => {
    const original = harakaLogger[name];
    if (typeof original !== 'function') return;
    harakaLogger[name] = function (this: unknown, ...args: unknown[]): unknown {
      return !namesEvent(args) && drop(args) ? true : original.apply(this, args);
    };
  };
  for (const name of ['loginfo', 'info'] as const) wrap(name, () => true);
  for (const name of ['lognotice', 'notice'] as const) {
    wrap(name, (args) => routineRelayNotice(args, options.injectPort));
  }
}

/** Haraka's server module, the part used here (node_modules/Haraka/server.js). */
interface HarakaServer {
  createServer(): void;
  performShutdown(): void;
}

export interface HarakaInProcess {
  /**
   * Haraka's graceful stop (what bin/haraka does on SIGINT): listeners closed, open
   * sessions finish, the process exits 0 when idle or after `force_shutdown_timeout`.
   * Still running after `killAfterMs`: exit at once (the mta process is Haraka).
   */
  stop(killAfterMs: number, onForced: () => void): void;
}

/**
 * Runs Haraka inside the calling process, as `haraka -c <dir>` would (bin/haraka
 * sets `HARAKA` and requires haraka.js; this does what haraka.js does, with our
 * own signal handling): one node process less than a child (issue 11, memory).
 * The calling process must be dedicated to Haraka — Haraka installs
 * process-wide handlers and exits the process when it stops — which is what
 * the mta process is. Haraka's log records go through `mapHarakaLine` to our
 * logger instead of stdout, so the output stays our JSON lines.
 */
export function runHarakaInProcess(
  harakaDir: string,
  logger: Logger,
  options: { readonly injectPort?: number | undefined } = {},
): HarakaInProcess {
  const log = logger.child({ module: 'haraka' });
  // Read by haraka-config and server.js when they are first required, so set before.
  // eslint-disable-next-line no-restricted-properties -- a write for Haraka, not a setting we read
  process.env.HARAKA = harakaDir;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on demand, after HARAKA is set */
  const harakaLogger = require('Haraka/logger') as HarakaLogger;
  const constants = require('haraka-constants') as { cont: number };
  // logger.js writes a record to stdout when no `log` hook took it (plugins.js looks the
  // respond method up by name on every call, so replacing it covers every record).
  quietHarakaLogs(harakaLogger, { debug: log.isLevelEnabled('debug'), injectPort: options.injectPort });
  harakaLogger.log_respond = (retval, _msg, data) => {
    if (retval !== constants.cont) return false;
    const mapped = mapHarakaLine(data.data, 'stdout');
    if (mapped !== undefined) log[mapped.level](mapped.fields, mapped.msg);
    return true;
  };
  // Haraka's dependencies print to the console (haraka-email-message's fallback logger …):
  // those lines are mapped like a child's stdout/stderr used to be.
  const toLog =
    (stream: 'stdout' | 'stderr') =>
    (...args: unknown[]): void => {
      for (const line of format(...args).split('\n')) {
        const mapped = mapHarakaLine(line, stream);
        if (mapped !== undefined) log[mapped.level](mapped.fields, mapped.msg);
      }
    };
  /* eslint-disable no-console -- redirecting the console to our logger, not printing */
  console.log = toLog('stdout');
  console.info = toLog('stdout');
  console.warn = toLog('stderr');
  console.error = toLog('stderr');
  /* eslint-enable no-console */
  const server = require('Haraka/server') as HarakaServer;
  const version = (require('Haraka/package.json') as { version: string }).version;
  /* eslint-enable @typescript-eslint/no-require-imports */
  process.on('uncaughtException', (err) => {
    harakaLogger.crit('Caught exception:', err);
    harakaLogger.dump_and_exit(1);
  });
  harakaLogger.log('NOTICE', `Starting up Haraka version ${version}`);
  server.createServer();

  let stopping = false;
  return {
    stop(killAfterMs, onForced) {
      if (stopping) return;
      stopping = true;
      setTimeout(() => {
        log.warn(
          { event: 'mta_haraka_killed', afterMs: killAfterMs },
          'Haraka did not stop in time; exiting',
        );
        onForced();
      }, killAfterMs).unref();
      harakaLogger.dump_and_exit(() => server.performShutdown());
    },
  };
}
