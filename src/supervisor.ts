import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { inheritedEnv } from './config/process-env';
import { LISTEN_FAILED_EXIT } from './shared/listen-failure';
import { PROCESS_READY_EVENT } from './shared/process-ready';
import type { WorkSignal } from './shared/work-signal';
import { isWorkSignal, WORK_EVENT } from './shared/work-signal';

export const PROCESS_NAMES = ['api', 'worker', 'mta'] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];

const ENTRY: Record<ProcessName, string> = {
  api: path.join(__dirname, 'api', 'main.js'),
  worker: path.join(__dirname, 'worker', 'main.js'),
  mta: path.join(__dirname, 'mta', 'main.js'),
};

/**
 * V8 flags for every child. The young generation's semi-spaces grow during startup
 * (module loading allocates a lot) and never shrink back, so an idle process keeps
 * that new space resident; a small cap gives it back at no cost in throughput
 * (issue 11). `--expose-gc` lets a child that went quiet run the one collection
 * that shrinks its heap again (src/shared/idle-gc.ts, issue 18 item 9; the figures
 * are in bench/RESULTS.md, memory). NODE_OPTIONS still applies on top.
 */
export const CHILD_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--expose-gc'];

/**
 * Per-process V8 flags after CHILD_NODE_FLAGS (the later flag wins). The api's main
 * thread allocates for every send (body, JSON, koa's objects, the message for the
 * writer thread) while many requests are in flight: with the children's small
 * semi-spaces it scavenged every few sends and GC was its largest single cost under
 * load. A larger new space for the api alone trades a little idle memory for far
 * fewer scavenges (issue 11; the trade measured in bench/RESULTS.md, api-accept).
 */
export const PROCESS_NODE_FLAGS: Readonly<Record<ProcessName, readonly string[]>> = {
  api: ['--max-semi-space-size=8'],
  worker: [],
  mta: [],
};

/**
 * Added to every child's environment unless the operator set it. glibc gives each thread that
 * finds the arenas busy an arena of its own (up to 8 per core), keeps what was freed in it, and
 * rarely trims any but the main one; our children run many threads (V8's platform workers,
 * libuv's pool, 32 in the mta, the writer threads), so after a burst each process held several
 * arenas of freed memory. Two bound that; malloc is not hot in these threads, V8's heap has
 * its own allocator (issue 18 item 9; figures in bench/RESULTS.md, memory).
 */
export const CHILD_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The supervisor's log calls; pino's Logger fits, and so does lineLogger(). */
export interface SupervisorLog {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * JSON lines in the shape of src/shared/logger.ts (`level` label, ISO `time`,
 * `process`, `pid`, the fields, `msg`), without pino: the supervisor's fields
 * are fixed (names, pids, exit codes), nothing there needs redacting.
 */
export function lineLogger(options: { level: string; process: string; node?: string }): SupervisorLog {
  const min =
    options.level === 'silent' ? Infinity : LEVELS.indexOf(options.level as (typeof LEVELS)[number]);
  const at =
    (level: (typeof LEVELS)[number]) =>
    (fields: Record<string, unknown>, msg: string): void => {
      if (LEVELS.indexOf(level) < min) return;
      const line = {
        level,
        time: new Date().toISOString(),
        process: options.process,
        ...(options.node === undefined ? {} : { node: options.node }),
        pid: process.pid,
        ...fields,
        msg,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

/** How long the api and worker wait for the mta's first greeting before starting anyway. */
const MTA_READY_WAIT_MS = 20_000;

// A child that lived this long before dying is restarted promptly again.
const HEALTHY_RUN_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;
/**
 * A child that fails the same way (exit code and signal) this many times in a row,
 * each time before it said it was ready, is not going to come up: the supervisor
 * stops the appliance instead of restarting it forever (issue 21 item 3). A child
 * that dies after it was ready (a crash, the worker's stall watchdog) is restarted
 * as before, however often.
 */
export const GIVE_UP_AFTER = 5;

interface Slot {
  readonly name: ProcessName;
  child: ChildProcess | undefined;
  startedAt: number;
  failures: number;
  /** Said it serves since its last start (PROCESS_READY_EVENT, or mta_ready). */
  ready: boolean;
  /** `code/signal` of the last exit before ready, and how many times in a row it was that. */
  lastFailure: string | undefined;
  sameFailures: number;
  restartTimer: NodeJS.Timeout | undefined;
}

export interface SupervisorOptions {
  readonly names: readonly ProcessName[];
  readonly log: SupervisorLog;
  readonly shutdownTimeoutMs: number;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * A child cannot start (a listener that cannot bind, or GIVE_UP_AFTER identical
   * start-up failures): the supervisor has begun stopping every child and calls
   * this with the exit code the appliance should end with.
   */
  readonly onGiveUp?: (exitCode: number) => void;
}

/**
 * Runs each process as a child, restarts one that dies (exponential backoff,
 * reset after a healthy run) and on stop() sends SIGTERM to all, SIGKILL after
 * the timeout.
 */
export class Supervisor {
  private readonly slots: Slot[];
  private stopping = false;
  /** Set while the other processes wait for the mta's first start (see start()). */
  private mtaSettled: ((reason: string) => void) | undefined;

  constructor(private readonly options: SupervisorOptions) {
    this.slots = options.names.map((name) => ({
      name,
      child: undefined,
      startedAt: 0,
      failures: 0,
      ready: false,
      lastFailure: undefined,
      sameFailures: 0,
      restartTimer: undefined,
    }));
  }

  /**
   * Starts the mta first and the others once it greets (its `mta_ready` message
   * over IPC), when it exits, or after MTA_READY_WAIT_MS, whichever comes first:
   * so an api answering /health means SMTP is up too (container healthchecks and
   * probes see the whole appliance), and the worker's first hand-offs find the
   * injection listener. A failing MTA never holds the api back for longer.
   */
  start(): void {
    const mta = this.slots.find((s) => s.name === 'mta');
    const others = this.slots.filter((s) => s !== mta);
    if (mta === undefined || others.length === 0) {
      for (const slot of this.slots) this.spawn(slot);
      return;
    }
    let started = false;
    const startOthers = (reason: string): void => {
      clearTimeout(timer);
      this.mtaSettled = undefined;
      if (started || this.stopping) return;
      started = true;
      this.options.log.info(
        { event: 'supervisor_starting_rest', reason, processes: others.map((s) => s.name) },
        'starting the other processes',
      );
      for (const slot of others) this.spawn(slot);
    };
    const timer = setTimeout(() => startOthers('mta_ready_timeout'), MTA_READY_WAIT_MS);
    this.mtaSettled = startOthers;
    this.spawn(mta);
  }

  private spawn(slot: Slot): void {
    const { log } = this.options;
    slot.restartTimer = undefined;
    slot.startedAt = Date.now();
    slot.ready = false;
    const child = spawn(
      process.execPath,
      [...CHILD_NODE_FLAGS, ...PROCESS_NODE_FLAGS[slot.name], ENTRY[slot.name]],
      {
        env: { ...CHILD_ENV, ...(this.options.env ?? inheritedEnv()) },
        // Every child gets an IPC channel: the mta reports readiness over it (see
        // start()), the api its work signals for the worker (relayWork), and each child stops when it closes, i.e. when this supervisor
        // died without stopping them (src/shared/parent-watch.ts, mailroom-process).
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    slot.child = child;
    log.info({ event: 'process_started', name: slot.name, childPid: child.pid }, `${slot.name} started`);
    child.on('message', (m: unknown) => {
      const event = (m as { event?: unknown } | null)?.event;
      if (event === PROCESS_READY_EVENT) slot.ready = true;
      if (slot.name === 'mta' && event === 'mta_ready') {
        slot.ready = true;
        this.mtaSettled?.('mta_ready');
      }
      if (isWorkSignal(m)) this.relayWork();
    });
    child.on('exit', (code, signal) => {
      slot.child = undefined;
      const ranMs = Date.now() - slot.startedAt;
      // Before mtaSettled: a failed mta must not start the others on its way out.
      if (!this.stopping && this.cannotStart(slot, code, signal)) return;
      if (slot.name === 'mta') this.mtaSettled?.('mta_exited');
      if (this.stopping) {
        log.info({ event: 'process_stopped', name: slot.name, code, signal }, `${slot.name} stopped`);
        return;
      }
      slot.failures = ranMs > HEALTHY_RUN_MS ? 1 : slot.failures + 1;
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (slot.failures - 1));
      log.error(
        { event: 'process_exited', name: slot.name, code, signal, ranMs, restartInMs: delay },
        `${slot.name} exited; restarting`,
      );
      slot.restartTimer = setTimeout(() => this.spawn(slot), delay);
    });
  }

  /**
   * True (and the appliance is being stopped) when this exit means the child cannot
   * start: a listener that cannot bind (LISTEN_FAILED_EXIT; the child logged the one
   * line naming the setting and port), or GIVE_UP_AFTER identical failures before ready.
   */
  private cannotStart(slot: Slot, code: number | null, signal: string | null): boolean {
    const failure = `${code}/${signal}`;
    if (slot.ready) slot.lastFailure = undefined;
    slot.sameFailures = slot.lastFailure === failure ? slot.sameFailures + 1 : 1;
    slot.lastFailure = failure;
    const listen = code === LISTEN_FAILED_EXIT;
    if (!listen && slot.sameFailures < GIVE_UP_AFTER) return false;
    const exitCode = code !== null && code !== 0 ? code : 1;
    this.options.log.error(
      { event: 'supervisor_giving_up', name: slot.name, code, signal, failures: slot.sameFailures, exitCode },
      listen
        ? `${slot.name} cannot bind a listener; stopping the appliance`
        : `${slot.name} failed the same way ${slot.sameFailures} times in a row at start-up; stopping the appliance`,
    );
    void this.stop().then(() => this.options.onGiveUp?.(exitCode));
    return true;
  }

  /** Passes a child's work signal on to the worker (src/shared/work-signal.ts); dropped when it is down. */
  private relayWork(): void {
    const worker = this.slots.find((s) => s.name === 'worker')?.child;
    if (worker?.connected !== true) return;
    worker.send({ event: WORK_EVENT } satisfies WorkSignal, undefined, {}, () => undefined);
  }

  pids(): Partial<Record<ProcessName, number>> {
    const out: Partial<Record<ProcessName, number>> = {};
    for (const s of this.slots) if (s.child?.pid !== undefined) out[s.name] = s.child.pid;
    return out;
  }

  /** SIGTERM to every child; SIGKILL to those still running after the timeout. Resolves when all are gone. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.mtaSettled?.('stopping'); // clears the wait; nothing more is started
    const running: Promise<void>[] = [];
    for (const slot of this.slots) {
      if (slot.restartTimer) clearTimeout(slot.restartTimer);
      const child = slot.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      running.push(
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          const killer = setTimeout(() => {
            this.options.log.warn(
              { event: 'process_kill', name: slot.name },
              `${slot.name} did not stop; killing`,
            );
            child.kill('SIGKILL');
          }, this.options.shutdownTimeoutMs);
          child.once('exit', () => clearTimeout(killer));
          child.kill('SIGTERM');
        }),
      );
    }
    await Promise.all(running);
  }
}
