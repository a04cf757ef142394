// Memory given back when a process goes quiet (issue 18 item 9). V8 keeps its young generation at
// the size start-up or a burst grew it to (the api's semi-spaces are large on purpose, see
// src/supervisor.ts), and the old generation keeps the pages it grew into; nothing shrinks them
// while the process sits idle, so an idle appliance kept its start-up peak. Only a
// memory-reducing collection (the `last-resort` flavour: compacts and uncommits the young
// generation) gives them back. It blocks the event loop for tens of milliseconds, up to a few
// hundred in the mta (Haraka's heap) on a busy machine, so it runs only once the loop has been
// quiet for a while, and once per quiet spell: at worst one message arriving after a pause waits
// for it.
import { performance } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Logger } from './logger';

export interface IdleGcOptions {
  /** How often the loop's utilization is sampled. */
  readonly intervalMs?: number;
  /** Consecutive quiet samples before the collection runs. */
  readonly quietSamples?: number;
}

/**
 * At or below this event-loop utilization a sample counts as quiet: an idle worker still spends
 * 1-2 % of its loop on polls and schedules.
 */
const QUIET_ELU = 0.03;
/** Above this a sample counts as work. */
const BUSY_ELU = 0.1;
/**
 * Work is this many busy samples in a row: then the next quiet spell collects again. One busy
 * sample is not enough: on a loaded machine a lone log write or a descheduled timer callback
 * (a few ms in a short sample) looked like work and collected twice for one quiet spell.
 */
const BUSY_SAMPLES = 2;

/**
 * Starts watching the event loop; a no-op returning a no-op stop when `gc` is not exposed
 * (the process was not started with `--expose-gc`: the supervisor passes it to its children).
 * The first quiet spell after start-up collects too, since start-up allocated the most.
 */
export function collectWhenIdle(logger: Logger, options: IdleGcOptions = {}): { stop(): void } {
  const gc = globalThis.gc;
  if (gc === undefined) return { stop: () => undefined };
  const quietSamples = options.quietSamples ?? 3;
  let armed = true;
  let quiet = 0;
  let busy = 0;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    busy = elu > BUSY_ELU ? busy + 1 : 0;
    if (busy >= BUSY_SAMPLES) armed = true;
    quiet = elu <= QUIET_ELU ? quiet + 1 : 0;
    if (!armed || quiet < quietSamples) return;
    armed = false;
    const heapBefore = process.memoryUsage().heapTotal;
    const started = performance.now();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const ms = performance.now() - started;
    logger.debug({
      event: 'memory_released',
      ms: Math.round(ms),
      heapBefore,
      heapAfter: process.memoryUsage().heapTotal,
    });
    // The collection and its log line must not count as work and re-arm the next sample.
    last = performance.eventLoopUtilization();
  }, options.intervalMs ?? 500);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
